import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createDoppel, type Doppel } from '../../src/features/doppel/index.ts'
import { createDoppelServer, listen, type RunningServer } from '../../src/faces/server/index.ts'
import { TenantRegistry } from '../../src/features/tenants/index.ts'
import { startServe, stopServe, type ServeProcess } from '../server/serve-process.ts'

// A server's caps bound the server, not each instance: its tenants draw IMDS listeners and faults from the
// same pools as the root, and give them back when they are dropped.
let root: Doppel
let tenants: TenantRegistry
let server: RunningServer

beforeAll(async () => {
  root = createDoppel({ seed: 1, fakeCloud: { imdsListenerLimit: 2 }, faultLimit: 3 })
  tenants = new TenantRegistry(root)
  server = await listen(createDoppelServer(root, { tenants }), 0, '127.0.0.1')
})
afterAll(() => server.close())

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })
  return { status: res.status, body: res.status === 204 ? undefined : ((await res.json()) as { errors?: string[]; id?: string; faults?: unknown[] }) }
}

const FAULT = { path: '/v1/nothing-here', status: 503 }

it('caps faults across the root and its tenants, names the cap, changes nothing when refused, and frees a dropped tenant\'s', async () => {
  expect((await call('POST', '/t/a/_doppel/faults', FAULT)).status).toBe(201)
  expect((await call('POST', '/t/b/_doppel/faults', FAULT)).status).toBe(201)
  const kept = await call('POST', '/_doppel/faults', FAULT)
  expect(kept.status).toBe(201)
  const refused = await call('POST', '/_doppel/faults', FAULT)
  expect(refused.status).toBe(400)
  expect(refused.body?.errors?.[0]).toBe(
    'Failed to add a fault: 3 faults are set, the limit (faultLimit, --fault-limit; shared by a server\'s tenants); remove one or reset',
  )
  expect((await call('GET', '/_doppel/faults')).body?.faults).toHaveLength(1)

  tenants.drop('a')
  expect((await call('POST', '/_doppel/faults', FAULT)).status).toBe(201)
  expect((await call('POST', '/t/b/_doppel/faults', FAULT)).status).toBe(400)
  expect((await call('DELETE', `/_doppel/faults/${kept.body?.id}`)).status).toBe(204)
  expect((await call('POST', '/t/b/_doppel/faults', FAULT)).status).toBe(201)
  await root.reset()
  tenants.drop('b')
  for (let i = 0; i < 3; i++) expect((await call('POST', '/t/c/_doppel/faults', { ...FAULT, times: 1 })).status).toBe(201)
  // A fault used up by its last hit gives its place back.
  expect((await call('GET', '/t/c/v1/nothing-here')).status).toBe(503)
  expect((await call('POST', '/_doppel/faults', FAULT)).status).toBe(201)
  tenants.drop('c')
  await root.reset()
})

it('caps per-instance IMDS listeners across the root and its tenants', async () => {
  const open = async (prefix: string) => {
    const created = await call('POST', `${prefix}/_doppel/cloud/instances`, {})
    const id = (created.body as unknown as { instance_id: string }).instance_id
    return call('POST', `${prefix}/_doppel/cloud/instances/${id}/imds`)
  }
  expect((await open('/t/a')).status).toBe(200)
  expect((await open('/t/b')).status).toBe(200)
  const third = await open('')
  expect(third.status).toBe(409)
  expect(third.body?.errors?.[0]).toContain('2 are open, the limit (fakeCloud.imdsListenerLimit, --imds-listener-limit)')
  tenants.drop('a')
  // The dropped tenant's socket closes asynchronously; its place is free once it has.
  await expect.poll(async () => (await open('')).status).toBe(200)
  tenants.drop('b')
  await root.reset()
})

describe('doppel serve --fault-limit and --imds-listener-limit', () => {
  let serve: ServeProcess | undefined
  afterEach(() => stopServe(serve))

  it('cap the whole server, tenants included, and name the cap when refused', async () => {
    serve = await startServe(['--fault-limit', '2', '--imds-listener-limit', '1'])
    const post = (path: string, body: unknown) =>
      fetch(`http://127.0.0.1:${serve!.port}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
    expect((await post('/_doppel/faults', FAULT)).status).toBe(201)
    expect((await post('/t/a/_doppel/faults', FAULT)).status).toBe(201)
    const refused = await post('/t/b/_doppel/faults', FAULT)
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { errors: string[] }).errors[0]).toContain('2 faults are set, the limit (faultLimit, --fault-limit')
    const instance = async (prefix: string) => ((await (await post(`${prefix}/_doppel/cloud/instances`, {})).json()) as { instance_id: string }).instance_id
    expect((await post(`/_doppel/cloud/instances/${await instance('')}/imds`, {})).status).toBe(200)
    expect((await post(`/t/a/_doppel/cloud/instances/${await instance('/t/a')}/imds`, {})).status).toBe(409)
  })
})
