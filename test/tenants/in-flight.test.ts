import { expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/doppel.ts'
import { TenantRegistry } from '../../src/features/tenants/index.ts'

// A tenant is idle only when no request of its own is running: a write still in flight when the idle
// time passes lands in the tenant that later reads see, never in a dropped copy.
it('does not drop a tenant for idleness while one of its requests is running', async () => {
  let wallClock = 0
  const tenants = new TenantRegistry(createDoppel({ seed: 1 }), { idleTimeoutMs: 1000, wallClock: () => wallClock })
  const call = (method: string, path: string, body?: unknown) =>
    tenants.handle(
      new Request(`http://127.0.0.1${path}`, {
        method,
        headers: { 'X-Service-Token': 'root', 'Content-Type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      }),
    )
  tenants.open('a')!.faults.add({ path: '/v1/auth/cloud/role/slow', method: 'POST', latency_ms: 50, times: 1 })
  const slowWrite = call('POST', '/t/a/v1/auth/cloud/role/slow', { auth_type: 'ec2', bound_ami_id: 'ami-1' })
  wallClock += 5000
  expect((await call('GET', '/t/b/v1/auth/cloud/roles?list=true')).status).toBe(404)
  expect(tenants.list().map((tenant) => tenant.id)).toEqual(['a', 'b'])
  expect((await slowWrite).status).toBe(204)
  expect((await call('GET', '/t/a/v1/auth/cloud/role/slow')).status).toBe(200)

  // Once the request is answered, the idle time counts from then.
  wallClock += 999
  tenants.list()
  expect(tenants.get('a')).toBeDefined()
  wallClock += 1
  expect(tenants.list().map((tenant) => tenant.id)).toEqual([])
})

it('refuses, as a dropped connection, a write still waiting when its tenant is dropped', async () => {
  const tenants = new TenantRegistry(createDoppel({ seed: 1 }))
  tenants.open('a')!.faults.add({ path: '/v1/auth/cloud/role/late', method: 'POST', latency_ms: 60_000, times: 1 })
  const lateWrite = tenants.handle(
    new Request('http://127.0.0.1/t/a/v1/auth/cloud/role/late', {
      method: 'POST',
      headers: { 'X-Service-Token': 'root', 'Content-Type': 'application/json' },
      body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-1' }),
    }),
  )
  expect(tenants.drop('a')).toBe(true)
  await expect(lateWrite).rejects.toMatchObject({ code: 'DOPPEL_CONNECTION_DROPPED' })
  const read = await tenants.handle(new Request('http://127.0.0.1/t/a/v1/auth/cloud/role/late', { headers: { 'X-Service-Token': 'root' } }))
  expect(read.status).toBe(404)
})
