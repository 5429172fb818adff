import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runInNewContext } from 'node:vm'
import { setFlagsFromString } from 'node:v8'
import { expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { TenantRegistry } from '../../src/features/tenants/index.ts'
import { tempDir } from '../support/temp-dir.ts'

// Tenants of a seeded server share the parsed fixture file: a new tenant costs its own state, not another
// parse, and the process's heap bounds how many there can be.
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const TOKEN = { 'X-Service-Token': 'root' }
const ROLES = 1000
/** Stated: 100 tenants seeded with a 1,000-role file (~100 KB) take less than this much heap each. */
const HEAP_PER_TENANT = 3 * 1048576

function seedFile(): string {
  const lines = ['version: 1', 'auth:', '  roles:']
  for (let i = 0; i < ROLES; i++) lines.push(`    role-${i}:\n      auth_type: ec2\n      bound_ami_id: ami-${i.toString(16).padStart(8, '0')}\n      token_policies: [read]`)
  const path = join(tempDir('tenant-memory'), 'seed.yaml')
  writeFileSync(path, lines.join('\n') + '\n')
  return path
}

const read = (tenants: TenantRegistry, tenant: string, role: string) =>
  tenants.handle(new Request(`http://127.0.0.1/t/${tenant}/v1/auth/cloud/role/${role}`, { headers: TOKEN }))

it('100 new tenants of a seeded server parse the seed file once and stay under the stated heap per tenant', { timeout: 120_000 }, async () => {
  const root = createDoppel({ seed: 1, fixtures: seedFile() })
  await root.ready()
  const tenants = new TenantRegistry(root, { maxTenants: 100 })
  expect((await read(tenants, 'warm-up', 'role-0')).status).toBe(200)
  tenants.drop('warm-up')
  gc()
  const before = process.memoryUsage().heapUsed
  for (let i = 0; i < 100; i++) expect((await read(tenants, `t${i}`, `role-${ROLES - 1}`)).status).toBe(200)
  gc()
  const perTenant = (process.memoryUsage().heapUsed - before) / 100
  expect(root.checkedFixtures.size).toBe(1)
  expect(tenants.get('t99')!.checkedFixtures).toBe(root.checkedFixtures)
  expect(perTenant).toBeLessThan(HEAP_PER_TENANT)
  expect(perTenant).toBeGreaterThan(100 * 1024) // each really holds its 1,000 roles
})

it('refuses a new tenant while the heap holds more than its limit, naming the flag; known tenants go on', async () => {
  let heap = 10
  const tenants = new TenantRegistry(createDoppel({ seed: 1 }), { heapLimitBytes: 100 * 1048576, heapUsed: () => heap * 1048576 })
  expect((await read(tenants, 'a', 'x')).status).toBe(404)
  heap = 101
  const refused = await read(tenants, 'b', 'x')
  expect(refused.status).toBe(429)
  expect(((await refused.json()) as { errors: string[] }).errors[0]).toMatch(
    /^tenant memory limit reached: the heap holds 101 MiB, more than 100 MiB \(--tenant-heap-limit\); DELETE \/_doppel\/tenants\/<id> drops one/,
  )
  expect(tenants.list().map((tenant) => tenant.id)).toEqual(['a'])
  expect((await read(tenants, 'a', 'x')).status).toBe(404)
  heap = 99
  expect((await read(tenants, 'b', 'x')).status).toBe(404)
})
