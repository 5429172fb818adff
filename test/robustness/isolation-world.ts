import { expect } from 'vitest'
import { createDoppel, type Doppel } from '../../src/features/doppel/index.ts'
import { seedRegistry } from '../../src/services/registry/index.ts'

/** Emulator instances made alike (one seed, one start) that each write their own records, then check them. */

const START = Date.parse('2026-03-01T12:00:00Z')
const BASE = 'http://doppel.test'
const ROOT = { 'X-Service-Token': 'root', 'Content-Type': 'application/json' }

interface Written {
  doppel: Doppel
  mine: string
  instanceId: string
}

async function writeOwn(doppel: Doppel, mine: string, hours: number): Promise<Written> {
  const role = await doppel.fetch(`${BASE}/v1/auth/cloud/role/${mine}`, { method: 'POST', headers: ROOT, body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: `ami-${mine}` }) })
  expect(role.status).toBe(204)
  seedRegistry(doppel, { modules: [{ organization: 'acme', name: mine, provider: 'aws', versions: ['1.0.0'] }] })
  const instance = doppel.cloud.createInstance({ tags: { owner: mine } })
  const clock = await doppel.fetch(`${BASE}/_doppel/clock`, { method: 'POST', body: JSON.stringify({ advance: `${hours}h` }) })
  expect(clock.status).toBe(200)
  await doppel.fetch(`${BASE}/_doppel/faults`, { method: 'POST', body: JSON.stringify({ path: `/only/${mine}`, status: 500 }) })
  return { doppel, mine, instanceId: instance.instance_id }
}

async function checkOwn({ doppel, mine, instanceId }: Written, hours: number): Promise<void> {
  const roles = await (await doppel.fetch(`${BASE}/v1/auth/cloud/roles?list=true`, { headers: ROOT })).json()
  expect(roles.data.keys).toEqual([mine])
  const modules = await (await doppel.fetch(`${BASE}/api/v2/organizations/acme/registry-modules`, { headers: { Authorization: 'Bearer root' } })).json()
  expect(modules.data.map((m: any) => m.attributes.name)).toEqual([mine])
  expect(doppel.cloud.getInstance(instanceId)?.tags).toEqual({ owner: mine })
  expect(doppel.clock.nowMs()).toBe(START + hours * 3_600_000)
  expect(doppel.faults.list().map((f) => f.path)).toEqual([`/only/${mine}`])
  // Its journal holds its own requests only: role write, clock, fault, the two reads above.
  expect(doppel.journal.entries().map((e) => new URL(e.url).pathname)).toEqual([
    `/v1/auth/cloud/role/${mine}`,
    '/_doppel/clock',
    '/_doppel/faults',
    '/v1/auth/cloud/roles',
    '/api/v2/organizations/acme/registry-modules',
  ])
  const stored = JSON.stringify(doppel.store.snapshot())
  expect(stored).toContain(mine)
  expect(stored.match(/"owner":"([^"]+)"/g)).toEqual([`"owner":"${mine}"`])
}

/**
 * `count` instances with the same seed, written to at once (Promise.all), each checked to see only its
 * own writes. Same seed, same draws: the instances' generated ids collide, so shared state would show.
 */
export async function isolatedInstances(label: string, count: number): Promise<void> {
  const doppels = Array.from({ length: count }, () => createDoppel({ seed: 99, clock: { start: START, frozen: true } }))
  const written = await Promise.all(doppels.map((doppel, i) => writeOwn(doppel, `${label}-${i}`, i + 1)))
  expect(new Set(written.map((w) => w.instanceId)).size).toBe(1)
  await Promise.all(written.map((w, i) => checkOwn(w, i + 1)))
}
