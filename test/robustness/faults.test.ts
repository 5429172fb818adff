import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDoppel, type Doppel } from '../../src/features/doppel/index.ts'
import { seedRegistry } from '../../src/services/registry/index.ts'
import { BASE, deprecateBody, v1, v2, versionPath } from '../registry/registry-client.ts'

// Fault injection, WireMock-style, driven over the control API: a status or a drop answers instead of
// the handler (nothing changes), a latency delays the real answer, `times` is consumed, and every faulted
// reply carries the service's own error body.

const ROOT = { 'X-Service-Token': 'root', 'Content-Type': 'application/json' }

function world(): Doppel {
  const doppel = createDoppel({ seed: 3, clock: { start: '2026-03-01T12:00:00Z', frozen: true } })
  seedRegistry(doppel, { modules: [{ organization: 'acme', name: 'vpc', provider: 'aws', versions: ['1.0.0'] }] })
  return doppel
}

async function addFault(doppel: Doppel, fault: Record<string, unknown>): Promise<string> {
  const res = await doppel.fetch(`${BASE}/_doppel/faults`, { method: 'POST', body: JSON.stringify(fault) })
  expect(res.status).toBe(201)
  return ((await res.json()) as { id: string }).id
}

const writeRole = (doppel: Doppel, name: string) =>
  doppel.fetch(`${BASE}/v1/auth/cloud/role/${name}`, { method: 'POST', headers: ROOT, body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-1' }) })
const readRole = (doppel: Doppel, name: string) => doppel.fetch(`${BASE}/v1/auth/cloud/role/${name}`, { headers: ROOT })

/** A mount that has been used once, so its lazily created collections exist before a snapshot. */
async function warmWorld(): Promise<Doppel> {
  const doppel = world()
  expect((await writeRole(doppel, 'existing')).status).toBe(204)
  return doppel
}

describe('status and drop faults answer instead of the handler', () => {
  it('a 503 on the auth service: its own error body, and the write never happens', async () => {
    const doppel = await warmWorld()
    await addFault(doppel, { method: 'POST', path: '/v1/auth/cloud/role/*', status: 503 })
    const before = doppel.store.snapshot()
    const res = await writeRole(doppel, 'new-role')
    expect(res.status).toBe(503)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.json()).toEqual({ errors: ['Vault is sealed'] })
    expect(doppel.store.snapshot()).toEqual(before)
    // Only POST was faulted: the read reaches the handler, which never saw the write.
    expect((await readRole(doppel, 'new-role')).status).toBe(404)
  })

  it('a 500 on the auth service is multierror-wrapped; a 429 says when to retry', async () => {
    const doppel = await warmWorld()
    await addFault(doppel, { method: 'GET', path: '/v1/auth/cloud/role/existing', status: 500, times: 1 })
    await addFault(doppel, { method: 'GET', path: '/v1/auth/cloud/roles', status: 429, times: 1 })
    const failed = await readRole(doppel, 'existing')
    expect(failed.status).toBe(500)
    expect(await failed.json()).toEqual({ errors: ['1 error occurred:\n\t* internal error\n\n'] })
    const limited = await doppel.fetch(`${BASE}/v1/auth/cloud/roles?list=true`, { headers: ROOT })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('1')
    expect(await limited.json()).toEqual({ errors: ['rate limit quota exceeded'] })
  })

  it('a drop on the auth service rejects the fetch like a network failure, and the write never happens', async () => {
    const doppel = await warmWorld()
    await addFault(doppel, { path: '/v1/auth/cloud/role/:name', drop: true, times: 1 })
    const before = doppel.store.snapshot()
    await expect(writeRole(doppel, 'dropped')).rejects.toThrow(TypeError)
    expect(doppel.store.snapshot()).toEqual(before)
    expect((await readRole(doppel, 'dropped')).status).toBe(404)
  })

  it.each([500, 503])('a %i on the registry: a JSON:API errors document, and the deprecation never happens', async (status) => {
    const doppel = world()
    await addFault(doppel, { method: 'PATCH', path: '/api/v2/organizations/:org/registry-modules/*', status })
    const before = doppel.store.snapshot()
    const res = await v2(doppel, 'PATCH', versionPath('acme', 'vpc', 'aws', '1.0.0'), { body: deprecateBody() })
    expect(res.status).toBe(status)
    expect(res.headers.get('content-type')).toBe('application/vnd.api+json')
    expect(res.body).toEqual({ errors: [{ status: String(status), title: status === 500 ? 'internal server error' : 'service unavailable' }] })
    expect(doppel.store.snapshot()).toEqual(before)
    const read = await v1(doppel, 'acme/vpc/aws/1.0.0')
    expect(read.status).toBe(200)
    expect(read.body.deprecation ?? null).toBeNull()
  })

  it('a 429 on the registry carries the rate-limit headers go-tfe backs off with', async () => {
    const doppel = world()
    await addFault(doppel, { path: '/api/v2/ping', status: 429 })
    const res = await v2(doppel, 'GET', '/api/v2/ping')
    expect(res.status).toBe(429)
    expect(res.headers.get('x-ratelimit-limit')).toBe('30')
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0)
    expect(res.headers.get('retry-after')).toBe('1')
    expect(res.body).toEqual({ errors: [{ status: '429', title: 'Too many requests', detail: "You have exceeded the API's rate limit." }] })
  })

  it('a 500 on the fake cloud is an AWS XML error, and the request is not served', async () => {
    const doppel = world()
    const alice = doppel.cloud.createPrincipal({ type: 'user', name: 'alice' })
    await addFault(doppel, { path: 'https://iam.amazonaws.com/', status: 500 })
    const before = doppel.store.snapshot()
    const res = await doppel.fetch('https://iam.amazonaws.com/', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `Action=CreateAccessKey&Version=2010-05-08&UserName=${alice.name}`,
    })
    expect(res.status).toBe(500)
    const text = await res.text()
    expect(text).toMatch(/^<ErrorResponse xmlns="https:\/\/sts\.amazonaws\.com\/doc\/2011-06-15\/"><Error><Type>Receiver<\/Type><Code>InternalFailure<\/Code>/)
    expect(doppel.store.snapshot()).toEqual(before)
  })

  it('control API requests are never faulted, so a catch-all fault can still be cleared', async () => {
    const doppel = world()
    await addFault(doppel, { path: '*', status: 500 })
    expect((await doppel.fetch(`${BASE}/_doppel/health`)).status).toBe(200)
    expect((await doppel.fetch(`${BASE}/v1/auth/cloud/roles?list=true`, { headers: ROOT })).status).toBe(500)
    expect((await doppel.fetch(`${BASE}/_doppel/faults`, { method: 'DELETE' })).status).toBe(204)
    expect((await doppel.fetch(`${BASE}/v1/auth/cloud/roles?list=true`, { headers: ROOT })).status).toBe(404)
  })
})

describe('latency faults delay the real answer', () => {
  it('a request with a 200 ms latency resolves after a later request without one, with the handler’s own answer', async () => {
    const doppel = await warmWorld()
    await addFault(doppel, { method: 'POST', path: '/v1/auth/cloud/role/slow', latency_ms: 200 })
    const order: string[] = []
    const slow = writeRole(doppel, 'slow').then((res) => {
      order.push('slow')
      return res
    })
    const fast = writeRole(doppel, 'fast').then((res) => {
      order.push('fast')
      return res
    })
    const [slowRes, fastRes] = await Promise.all([slow, fast])
    expect(order).toEqual(['fast', 'slow'])
    expect(slowRes.status).toBe(204)
    expect(fastRes.status).toBe(204)
    expect((await readRole(doppel, 'slow')).status).toBe(200)
  })
})

describe('times', () => {
  it('a fault with times: 2 fires twice, counts its hits, then leaves', async () => {
    const doppel = await warmWorld()
    const id = await addFault(doppel, { method: 'GET', path: '/v1/auth/cloud/role/existing', status: 502, times: 2 })
    expect((await readRole(doppel, 'existing')).status).toBe(502)
    const listed = (await (await doppel.fetch(`${BASE}/_doppel/faults`)).json()) as { faults: Record<string, unknown>[] }
    expect(listed.faults).toEqual([expect.objectContaining({ id, hits: 1, remaining: 1 })])
    expect((await readRole(doppel, 'existing')).status).toBe(502)
    expect((await readRole(doppel, 'existing')).status).toBe(200)
    expect(((await (await doppel.fetch(`${BASE}/_doppel/faults`)).json()) as { faults: unknown[] }).faults).toEqual([])
  })

  it('a fault without times fires until it is deleted by id', async () => {
    const doppel = await warmWorld()
    const id = await addFault(doppel, { path: '/v1/auth/cloud/role/existing', status: 500 })
    for (let i = 0; i < 3; i++) expect((await readRole(doppel, 'existing')).status).toBe(500)
    expect((await doppel.fetch(`${BASE}/_doppel/faults/${id}`, { method: 'DELETE' })).status).toBe(204)
    expect((await readRole(doppel, 'existing')).status).toBe(200)
    expect((await doppel.fetch(`${BASE}/_doppel/faults/${id}`, { method: 'DELETE' })).status).toBe(404)
  })

  it('faults belong to one emulator instance', async () => {
    const faulted = await warmWorld()
    const other = await warmWorld()
    await addFault(faulted, { path: '/v1/auth/cloud/role/existing', status: 500 })
    expect((await readRole(other, 'existing')).status).toBe(200)
    expect((await readRole(faulted, 'existing')).status).toBe(500)
  })
})

describe('a drop fault on a real `doppel serve` socket', () => {
  const BIN = new URL('../../bin/doppel.js', import.meta.url).pathname
  let child: ChildProcess
  let url: string

  beforeAll(async () => {
    child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] })
    const [line] = (await once(child.stdout!, 'data')) as [Buffer]
    url = /listening on (http:\/\/\S+)/.exec(line.toString())![1]!
  })

  afterAll(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM')
      await once(child, 'exit')
    }
  })

  it('destroys the connection: fetch rejects, nothing is written, and the server keeps serving', async () => {
    const res = await fetch(`${url}/_doppel/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: '/v1/auth/cloud/role/*', drop: true, times: 1 }),
    })
    expect(res.status).toBe(201)
    const write = () => fetch(`${url}/v1/auth/cloud/role/dropped`, { method: 'POST', headers: ROOT, body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-1' }) })
    await expect(write()).rejects.toThrow(TypeError)
    expect((await fetch(`${url}/v1/auth/cloud/role/dropped`, { headers: ROOT })).status).toBe(404)
    expect((await write()).status).toBe(204)
    const journal = (await (await fetch(`${url}/_doppel/journal`)).json()) as { entries: { url: string; status: number; method: string }[] }
    expect(journal.entries.filter((e) => e.method === 'POST' && e.url.endsWith('/role/dropped')).map((e) => e.status)).toEqual([0, 204])
  })
})
