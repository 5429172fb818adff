import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { authState } from '../src/services/cloud-auth/index.ts'
import type { Doppel } from '../src/index.ts'
import { prepare, AUTH, ROOT } from './fixtures.ts'
import { figure, ratioAgainstFloor, timeAsync, type Figure } from './lib.ts'

const BIG = 100_000

/** Grows roles, access-list and deny-list entries to `count` each, cloned from a real role. */
function fill(doppel: Doppel, count: number): void {
  const state = authState(doppel, 'cloud')
  const template = state.roles.get('ec2-bench')!
  const now = doppel.clock.nowMs()
  for (let i = state.roles.size; i < count; i++) {
    state.roles.set({ ...template, name: `filler-role-${i}`, role_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` })
  }
  for (let i = state.accessList.size; i < count; i++) {
    state.accessList.set({
      instance_id: `i-${i.toString(16).padStart(17, '0')}`,
      role: 'filler',
      client_nonce: 'nonce',
      creation_time: now,
      last_updated_time: now,
      expiration_time: now + 3600_000,
      pending_time: '2024-01-01T00:00:00Z',
      disallow_reauthentication: false,
    })
  }
  for (let i = state.denyList.size; i < count; i++) {
    state.denyList.set({ tag: `v1:filler${i}:r=filler:d=false:m=false:hmac`, creation_time: now, expiration_time: now + 3600_000 })
  }
}

const P50 = { warmup: 100, iterations: 1000, batch: 1 }

async function loginP50(doppel: Doppel, login: string): Promise<number> {
  return timeAsync(async () => {
    const res = await doppel.fetch(`${AUTH}/login`, { method: 'POST', body: login })
    if (res.status !== 200) throw new Error(`login failed: ${await res.text()}`)
  }, P50)
}

async function readP50(doppel: Doppel): Promise<number> {
  return timeAsync(async () => {
    const res = await doppel.fetch(`${AUTH}/role/filler-role-7`, { headers: ROOT })
    if (res.status !== 200) throw new Error(`read failed: ${await res.text()}`)
  }, P50)
}

/**
 * Login and role read at 100k stored entries against 10; tidy of 100k expired entries; memory. Both
 * emulators live in the process while either is measured, and the rounds alternate, so heap size and
 * warm-up weigh on both sides alike.
 */
export async function benchScale(): Promise<Figure[]> {
  const small = await prepare()
  const big = await prepare()
  fill(small.doppel, 10)
  fill(big.doppel, BIG)
  const login = await ratioAgainstFloor(() => loginP50(big.doppel, big.ec2Login), () => loginP50(small.doppel, small.ec2Login))
  const read = await ratioAgainstFloor(() => readP50(big.doppel), () => readP50(small.doppel))

  const tidyDoppel = (await prepare()).doppel
  fill(tidyDoppel, BIG)
  tidyDoppel.clock.advance('800h')
  // A major collection of what the earlier sections left would otherwise land inside the timed request.
  globalThis.gc!()
  globalThis.gc!()
  const started = performance.now()
  const res = await tidyDoppel.fetch(`${AUTH}/tidy/identity-accesslist`, { method: 'POST', headers: ROOT, body: '{"safety_buffer":"1h"}' })
  const tidyMs = performance.now() - started
  const left = authState(tidyDoppel, 'cloud').accessList.size
  if (res.status !== 202 || left !== 0) throw new Error(`tidy did not empty the access list (${res.status}, ${left} left)`)

  return [
    figure('scale: ec2 login p50, 100k roles/access-list/deny-list entries / 10', login.ratio, 'x', '<= 1.2',
      `${login.subject.toFixed(0)} µs vs ${login.floor.toFixed(0)} µs`),
    figure('scale: role read p50, 100k stored / 10', read.ratio, 'x', '<= 1.2', `${read.subject.toFixed(1)} µs vs ${read.floor.toFixed(1)} µs`),
    figure('scale: tidy of 100k expired access-list entries', tidyMs, 'ms', '< 300'),
    figure('scale: memory for 100k access-list entries', memoryFor100k(), 'MB', '< 150'),
  ]
}

const MEMORY_PROBE = `
const { prepare } = await import('./bench/fixtures.ts')
const { authState } = await import('./src/services/cloud-auth/state.ts')
const p = await prepare()
const state = authState(p.doppel, 'cloud')
globalThis.gc(); globalThis.gc()
const before = process.memoryUsage().heapUsed
const now = p.doppel.clock.nowMs()
for (let i = 0; i < ${BIG}; i++) {
  state.accessList.set({ instance_id: 'i-' + i.toString(16).padStart(17, '0'), role: 'web-role', client_nonce: p.doppel.random.uuid(),
    creation_time: now, last_updated_time: now, expiration_time: now + 2764800000, pending_time: '2024-03-05T09:41:27Z', disallow_reauthentication: false })
}
globalThis.gc(); globalThis.gc()
process.stdout.write(String((process.memoryUsage().heapUsed - before) / 1e6))
`

function memoryFor100k(): number {
  const root = fileURLToPath(new URL('..', import.meta.url))
  const result = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', MEMORY_PROBE], { cwd: root, encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`memory probe failed: ${result.stderr}`)
  return Number(result.stdout)
}
