import { expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { TenantRegistry } from '../../src/features/tenants/index.ts'
import { createDoppelServer, listen } from '../../src/faces/server/index.ts'
import { connect } from 'node:net'

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

// Issue 34: a server reads a small body whole before it picks the tenant, so a write still uploading when
// the idle time passed landed in a fresh, empty copy of its tenant.
it('does not drop a tenant for idleness while a request of its is still uploading its body to the server', async () => {
  let wallClock = 0
  const root = createDoppel({ seed: 1 })
  const tenants = new TenantRegistry(root, { idleTimeoutMs: 1000, wallClock: () => wallClock })
  const server = await listen(createDoppelServer(root, { tenants }), 0, '127.0.0.1')
  try {
    const headers = { 'X-Service-Token': 'root', 'Content-Type': 'application/json' }
    const role = (name: string) => fetch(`${server.url}/t/a/v1/auth/cloud/role/${name}`, { method: 'POST', headers, body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-1' }) })
    expect((await role('kept')).status).toBe(204)
    const body = JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-2' })
    const socket = connect(server.port, '127.0.0.1')
    const answer = new Promise<string>((resolve) => {
      let text = ''
      socket.on('data', (chunk) => (text += chunk.toString()))
      socket.on('end', () => resolve(text))
    })
    socket.write(
      `POST /t/a/v1/auth/cloud/role/late HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-Token: root\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`,
    )
    // The server has the headers and waits for the rest of the body.
    await new Promise((resolve) => setTimeout(resolve, 100))
    wallClock += 5000
    expect(tenants.list().map((tenant) => tenant.id)).toEqual(['a'])
    socket.end(body.slice(5))
    expect(await answer).toMatch(/^HTTP\/1\.1 204/)
    const roles = await fetch(`${server.url}/t/a/v1/auth/cloud/roles?list=true`, { headers })
    expect((await roles.json()).data.keys).toEqual(['kept', 'late'])
  } finally {
    await server.close()
  }
})
