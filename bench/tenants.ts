import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createDoppel, createDoppelServer, listen, TenantRegistry } from '../src/index.ts'
import { figure, median, type Figure } from './lib.ts'
import { LoadGenerator } from './processes.ts'

const TOKEN = { 'x-service-token': 'root' }
const ROLE = JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-0bbbb000000000001' })
const IDLE = 500
const ACTIVE = 100
const SEEDED = 10

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc
  if (!collect) throw new Error('run with node --expose-gc (npm run bench does)')
  collect()
  collect()
}

/** What one tenant holds once used (a role written and read), measured over `IDLE` of them. */
async function idleTenantBytes(): Promise<number> {
  const tenants = new TenantRegistry(createDoppel({ seed: 1 }), { maxTenants: IDLE })
  const use = async (name: string) => {
    await tenants.handle(new Request(`http://bench.test/t/${name}/v1/auth/cloud/role/web`, { method: 'POST', headers: TOKEN, body: ROLE }))
    await (await tenants.handle(new Request(`http://bench.test/t/${name}/v1/auth/cloud/role/web`, { headers: TOKEN }))).text()
  }
  await use('warm-up') // loads the service modules, which are code, not tenant state
  tenants.drop('warm-up')
  gc()
  const before = process.memoryUsage().heapUsed
  for (let i = 0; i < IDLE; i++) await use(`idle-${i}`)
  gc()
  const bytes = (process.memoryUsage().heapUsed - before) / IDLE
  if (tenants.list().length !== IDLE) throw new Error('tenants went missing')
  return bytes
}

/** A fixture file of roles, about `bytes` long: what a team seeds every tenant with. */
function seedFile(bytes: number): string {
  const lines = ['version: 1', 'auth:', '  roles:']
  let size = 0
  for (let i = 0; size < bytes; i++) {
    const role = `    role-${i}:\n      auth_type: ec2\n      bound_ami_id: ami-${i.toString(16).padStart(8, '0')}\n      token_policies: [read, write]`
    lines.push(role)
    size += role.length + 1
  }
  const dir = mkdtempSync(join(tmpdir(), 'doppel-bench-'))
  const path = join(dir, 'seed.yaml')
  writeFileSync(path, lines.join('\n') + '\n')
  return path
}

/**
 * What a tenant costs when the server is seeded with a 1.6 MB fixture file: heap per tenant (its own copy
 * of the seeded state; the file is parsed once for the server), and how long the first request to a new
 * tenant waits against the root's own load of the file.
 */
async function seededTenants(count = SEEDED): Promise<{ bytes: number; rootMs: number; tenantMs: number }> {
  const path = seedFile(1_600_000)
  try {
    const root = createDoppel({ seed: 1, fixtures: path })
    let started = performance.now()
    await root.ready()
    const rootMs = performance.now() - started
    const tenants = new TenantRegistry(root, { maxTenants: count + 1 })
    gc()
    const before = process.memoryUsage().heapUsed
    const waits: number[] = []
    for (let i = 0; i < count; i++) {
      started = performance.now()
      await (await tenants.handle(new Request(`http://bench.test/t/seeded-${i}/v1/auth/cloud/role/role-1`, { headers: TOKEN }))).text()
      waits.push(performance.now() - started)
    }
    gc()
    return { bytes: (process.memoryUsage().heapUsed - before) / count, rootMs, tenantMs: median(waits) }
  } finally {
    rmSync(dirname(path), { recursive: true, force: true })
  }
}

/** Requests per second of one autocannon run of `config` from the load generator. */
async function load(generator: LoadGenerator, config: Record<string, unknown>): Promise<number> {
  const duration = 2
  const result = await generator.run({ ...config, duration })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors under load`)
  return result.total / duration
}

/** Tenants: memory per idle tenant, and role reads spread over 100 tenants against the same reads in one. */
export async function benchTenants(rounds = 3): Promise<Figure[]> {
  const bytes = await idleTenantBytes()
  const seeded = await seededTenants()
  const server = await listen(createDoppelServer(createDoppel({ seed: 1 }), { tenants: { maxTenants: ACTIVE + 1 } }), 0, '127.0.0.1')
  const generator = new LoadGenerator()
  try {
    const names = [...Array.from({ length: ACTIVE }, (_, i) => `active-${i}`), 'single']
    for (const name of names) {
      await fetch(`${server.url}/t/${name}/v1/auth/cloud/role/web`, { method: 'POST', headers: TOKEN, body: ROLE })
    }
    // Each connection cycles through the list: every request of a round goes to the next tenant.
    const read = (name: string) => ({ method: 'GET', path: `/t/${name}/v1/auth/cloud/role/web`, headers: TOKEN })
    const many = { url: server.url, requests: names.slice(0, ACTIVE).map(read) }
    const one = { url: server.url, requests: names.slice(0, ACTIVE).map(() => read('single')) }
    const ratios: number[] = []
    let detail = ''
    for (let i = 0; i < rounds; i++) {
      const floor = await load(generator, one)
      const subject = await load(generator, many)
      ratios.push(subject / floor)
      detail = `${subject.toFixed(0)} req/s over ${ACTIVE} tenants vs ${floor.toFixed(0)} req/s in one`
    }
    return [
      figure(`tenants: heap per idle tenant (a role written and read; ${IDLE} tenants)`, bytes / 1024, 'KiB', '< 256'),
      figure(`tenants: role reads over ${ACTIVE} active tenants / the same reads in one tenant`, median(ratios), 'x', '>= 0.9', detail),
      figure(`tenants: heap per tenant seeded from a 1.6 MB fixture file (${SEEDED} tenants)`, seeded.bytes / 1048576, 'MiB', '< 32'),
      figure(
        'tenants: first request to a new seeded tenant / the root loading the same file',
        seeded.tenantMs / seeded.rootMs,
        'x',
        '<= 0.5',
        `${seeded.tenantMs.toFixed(0)} ms vs ${seeded.rootMs.toFixed(0)} ms: the file is parsed and checked once per server`,
      ),
    ]
  } finally {
    await Promise.all([server.close(), generator.stop()])
  }
}
