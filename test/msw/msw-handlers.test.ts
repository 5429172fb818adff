import { gunzipSync } from 'node:zlib'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { createHandlers } from '../../src/faces/msw/index.ts'
import { readTar } from '../../src/services/registry/index.ts'
import { publish } from '../registry/registry-client.ts'

describe('MSW handlers', () => {
  const a = createDoppel({ seed: 1 })
  const b = createDoppel({ seed: 2 })
  const server = setupServer(...createHandlers(a, { baseUrl: 'http://a.doppel.test' }), ...createHandlers(b, { baseUrl: 'http://b.doppel.test', cloud: false }))
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
  afterAll(() => server.close())

  it('answers plain fetch calls through the emulator, each origin its own instance', async () => {
    await fetch('http://a.doppel.test/_doppel/clock', { method: 'POST', body: JSON.stringify({ advance: '2h' }) })
    const clockA = await (await fetch('http://a.doppel.test/_doppel/clock')).json()
    const clockB = await (await fetch('http://b.doppel.test/_doppel/clock')).json()
    expect(Date.parse(clockA.now) - Date.parse(clockB.now)).toBeGreaterThan(7_100_000)
    expect(a.journal.entries().length).toBe(2)
    expect(b.journal.entries().length).toBe(1)
  })

  it('answers list operations sent as GET ?list=true', async () => {
    await fetch('http://a.doppel.test/v1/auth/cloud/roles?list=true')
    expect(a.journal.entries().at(-1)).toMatchObject({ method: 'GET', service: 'cloud-auth' })
  })

  it('hands on the answer as the emulator made it: status, headers, and a body of bytes whole', async () => {
    await publish(a, 'acme', 'vpc', 'aws', '1.0.0', { 'main.tf': 'resource "aws_vpc" "this" {}\n' })
    const download = await fetch('http://a.doppel.test/api/registry/v1/modules/acme/vpc/aws/1.0.0/download', { headers: { Authorization: 'Bearer root' } })
    expect(download.status).toBe(204)
    const location = download.headers.get('x-terraform-get')!
    const archive = await fetch(location.replace(/^http:\/\/[^/]+/, 'http://a.doppel.test'))
    const direct = await a.fetch(location)
    expect(archive.status).toBe(200)
    expect(archive.headers.get('content-type')).toBe(direct.headers.get('content-type'))
    const bytes = new Uint8Array(await archive.arrayBuffer())
    expect(bytes).toEqual(new Uint8Array(await direct.arrayBuffer()))
    expect(readTar(gunzipSync(bytes)).map((entry) => entry.path)).toEqual(['main.tf'])
    const refused = await fetch('http://a.doppel.test/v1/auth/cloud/role/x', { method: 'POST', headers: { 'X-Service-Token': 'root' }, body: '{"auth_type":"nope"}' })
    expect([refused.status, refused.statusText, refused.headers.get('content-type'), refused.headers.get('cache-control')]).toEqual([400, 'Bad Request', 'application/json', 'no-store'])
    expect(await refused.json()).toEqual({ errors: [expect.stringContaining('auth_type')] })
  })

  it('sends the Content-Length the server sends (with it MSW keeps the connection), none with a 204', async () => {
    const written = await fetch('http://a.doppel.test/v1/auth/cloud/role/length', { method: 'POST', headers: { 'X-Service-Token': 'root' }, body: '{"auth_type":"iam","bound_iam_principal_arn":"arn:aws:iam::123456789012:user/é","resolve_aws_unique_ids":false}' })
    expect([written.status, written.headers.get('content-length')]).toEqual([204, null])
    const read = await fetch('http://a.doppel.test/v1/auth/cloud/role/length', { headers: { 'X-Service-Token': 'root' } })
    const text = await read.text()
    expect(text).toContain('user/é')
    expect(read.headers.get('content-length')).toBe(String(Buffer.byteLength(text)))
    const direct = await a.fetch('http://a.doppel.test/v1/auth/cloud/role/length', { headers: { 'X-Service-Token': 'root' } })
    expect(direct.headers.get('content-length')).toBe(read.headers.get('content-length'))
  })

  it('turns a drop fault into a network error', async () => {
    a.faults.add({ path: '/api/v2/ping', drop: true })
    await expect(fetch('http://a.doppel.test/api/v2/ping')).rejects.toThrow()
  })
})
