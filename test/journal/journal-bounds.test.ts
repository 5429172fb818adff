import { beforeAll, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { createDoppelServer, listen } from '../../src/faces/server/index.ts'
import { TenantRegistry } from '../../src/features/tenants/index.ts'
import { BASE } from '../cloud-auth/login-setup.ts'
import { robustWorld, type RobustWorld } from '../robustness/robust-world.ts'

// The journal keeps each exchange (request and answer) bounded in count and in size, with no secret in it.

describe('the journal keeps the exchange', () => {
  it('request (method, path, headers, body) and answer (status, headers, body), as the client sent and got them', async () => {
    const doppel = createDoppel()
    const response = await doppel.fetch(`${BASE}/v1/auth/cloud/role/web`, {
      method: 'POST',
      headers: { 'X-Service-Token': 'root', 'Content-Type': 'application/json' },
      body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-1', token_ttl: 'soon' }),
    })
    const sent = await response.text()
    const [entry] = doppel.journal.entries()
    expect(entry!.request).toEqual({
      method: 'POST',
      path: '/v1/auth/cloud/role/web',
      headers: { 'content-type': 'application/json', 'x-service-token': '<redacted>' },
      body: '{"auth_type":"ec2","bound_ami_id":"ami-1","token_ttl":"soon"}',
      truncated: false,
    })
    expect(entry!.response).toEqual({ status: 400, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: sent, truncated: false })
    expect(entry!.explanation).toEqual({ rule: 'field token_ttl', seen: '"soon"', expected: expect.any(String) })
  })

  it('keeps at most journalLimit entries and journalBodyLimit bytes of each body, marked truncated', async () => {
    const doppel = createDoppel({ journalLimit: 5, journalBodyLimit: 1024 })
    const big = JSON.stringify({ pad: 'x'.repeat(200_000) })
    for (let i = 0; i < 20; i++) {
      await doppel.fetch(`${BASE}/_doppel/faults`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: big })
    }
    const entries = doppel.journal.entries()
    expect(entries).toHaveLength(5)
    expect(doppel.journal.total).toBe(20)
    for (const entry of entries) {
      expect(entry.request.truncated).toBe(true)
      expect(Buffer.byteLength(entry.request.body)).toBeLessThanOrEqual(1024)
      expect(entry.request.body.startsWith('{"pad":"xxx')).toBe(true)
    }
  })

  it('its memory stays bounded under load: hundreds of 1 MiB requests keep the default bound', async () => {
    const doppel = createDoppel({ journalLimit: 100 })
    const big = 'y'.repeat(1024 * 1024)
    const heap = () => {
      globalThis.gc?.()
      return process.memoryUsage().heapUsed
    }
    for (let i = 0; i < 30; i++) await doppel.fetch(`${BASE}/_doppel/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: big })
    const before = heap()
    for (let i = 0; i < 100; i++) await doppel.fetch(`${BASE}/_doppel/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: big })
    const kept = JSON.stringify(doppel.journal.entries()).length
    expect(kept).toBeLessThan(100 * 2 * (16 * 1024 + 2048))
    // 100 MiB went through; what stays is the ring of bounded copies (not slices pinning whole bodies).
    expect(heap() - before).toBeLessThan(64 * 1024 * 1024)
  }, 60_000)

  it('a binary body is kept as its size and type', async () => {
    const doppel = createDoppel()
    await doppel.fetch(`${BASE}/_archivist/nothing-here`, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream' }, body: new Uint8Array([0x1f, 0x8b, 0, 1, 2]) })
    expect(doppel.journal.entries()[0]!.request.body).toBe('<5 bytes of application/octet-stream>')
  })
})

describe('no secret in the journal', () => {
  let world: RobustWorld
  beforeAll(async () => {
    world = await robustWorld()
  })

  it('after logins, token calls, STS and IAM answers and registry writes, over HTTP and in process', async () => {
    const { doppel, cloud } = world
    const running = await listen(createDoppelServer(doppel), 0, '127.0.0.1')
    try {
      const assumed = cloud.createPrincipal({ type: 'role', name: 'deployer', account_id: '123456789012' })
      await world.api('POST', 'config/client', { access_key: 'AKIACONFIGCLIENT0001', secret_key: 'config-client-secret-value' })
      const registryToken = (await (await doppel.fetch(`${BASE}/_doppel/registry/tokens`, { method: 'POST', body: JSON.stringify({ organizations: ['acme'] }) })).json()).token as string
      const login = await world.login(world.iamLogin())
      const token = login.body.auth.client_token as string
      await fetch(`${running.url}/v1/auth/token/lookup-self`, { headers: { 'X-Service-Token': token } })
      await fetch(`${running.url}/v1/auth/token/renew-self`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } })
      await doppel.fetch(`${BASE}/api/v2/organizations/acme/registry-modules`, { headers: { Authorization: `Bearer ${registryToken}` } })
      await fetch(`${running.url}/_doppel/state`, { headers: { 'X-Service-Token': 'root' } })
      await fetch(`${running.url}/_doppel/snapshot`, { headers: { 'X-Service-Token': 'root' } })
      const secrets = {
        'user secret key': world.alice.secret_access_key,
        'role session secret key': assumed.secret_access_key,
        'role session token': assumed.session_token!,
        'config/client secret_key': 'config-client-secret-value',
        'client token': token,
        accessor: login.body.auth.accessor as string,
        'registry token': registryToken,
      }
      for (const [what, value] of Object.entries(secrets)) expect(value, what).toMatch(/.{8,}/)
      // In process, and through the control API with and without the management token.
      const texts = [
        JSON.stringify(doppel.journal.entries()),
        await (await fetch(`${running.url}/_doppel/journal`)).text(),
        await (await fetch(`${running.url}/_doppel/journal`, { headers: { 'X-Service-Token': 'root' } })).text(),
      ]
      for (const text of texts) for (const [what, value] of Object.entries(secrets)) expect(text.includes(value), what).toBe(false)
      expect(texts[0]).toContain('<redacted>')
    } finally {
      await running.close()
    }
  })

  it("the SigV4 Authorization header keeps its scope and signed headers, the signature shortened", async () => {
    const entry = world.doppel.journal.entries().find((e) => e.request.headers.authorization?.startsWith('AWS4-HMAC-SHA256'))
    if (entry) expect(entry.request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=\w+\/\d{8}\/[\w-]+\/\w+\/aws4_request, SignedHeaders=[\w;-]+, Signature=[0-9a-f]{8}…$/)
    const login = world.doppel.journal.entries().find((e) => e.request.body.includes('iam_request_headers'))!
    const headers = JSON.parse(Buffer.from(JSON.parse(login.request.body).iam_request_headers, 'base64').toString())
    expect(String(headers.Authorization)).toMatch(/Signature=[0-9a-f]{8}…$/)
  })
})

// Issue 34: the journal had a count bound per instance and no byte bound across them: 100 tenants with full
// journals reached 3.3 GB. A server's root and tenants now share one byte budget, oldest entries first.
describe('the journals of a server share one byte budget', () => {
  const post = (tenants: TenantRegistry, prefix: string, body: string) =>
    tenants.handle(new Request(`${BASE}${prefix}/_doppel/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }))

  it('past it the oldest entries go first, whichever instance holds them; the newest stay; a dropped tenant gives its bytes back', async () => {
    const root = createDoppel({ journalBytesLimit: 200_000 })
    const tenants = new TenantRegistry(root)
    const body = JSON.stringify({ pad: 'z'.repeat(10_000) })
    for (let i = 0; i < 10; i++) await post(tenants, '/t/a', body)
    for (let i = 0; i < 10; i++) await post(tenants, '/t/b', body)
    const a = tenants.get('a')!.journal
    const b = tenants.get('b')!.journal
    expect(b.entries()).toHaveLength(10)
    expect(a.entries().length).toBeLessThan(10)
    expect(a.entries().length).toBeGreaterThan(0)
    // What a keeps are its newest.
    expect(a.entries().at(-1)!.id).toBe(10)
    expect(root.sharedLimits.journalBytes.bytes).toBeLessThanOrEqual(200_000)
    expect(a.total).toBe(10)
    for (let i = 0; i < 10; i++) await post(tenants, '', body)
    expect(root.journal.entries()).toHaveLength(10)
    expect(a.entries()).toEqual([])
    expect(b.entries().length).toBeGreaterThan(0)
    const held = root.sharedLimits.journalBytes.bytes
    tenants.drop('b')
    // What is left is the root's ten entries of about 10 kB each.
    expect(root.sharedLimits.journalBytes.bytes).toBeLessThan(held)
    expect(root.sharedLimits.journalBytes.bytes).toBeLessThan(10 * 12_000)
  })

  it('many tenants with full journals stay within it in memory too', async () => {
    const root = createDoppel({ journalBytesLimit: 8 * 1024 * 1024 })
    const tenants = new TenantRegistry(root)
    const body = JSON.stringify({ pad: 'q'.repeat(16 * 1024) })
    const heap = () => {
      globalThis.gc?.()
      return process.memoryUsage().heapUsed
    }
    await post(tenants, '/t/warm', body)
    const before = heap()
    for (let t = 0; t < 30; t++) for (let i = 0; i < 60; i++) await post(tenants, `/t/tenant-${t}`, body)
    // 30 tenants × 60 entries × 2 bodies of 16 KiB would be 56 MiB kept; the budget keeps 8.
    const kept = [...Array(30).keys()].reduce((sum, t) => sum + tenants.get(`tenant-${t}`)!.journal.entries().length, 0)
    expect(kept).toBeLessThan(30 * 60)
    expect(root.sharedLimits.journalBytes.bytes).toBeLessThanOrEqual(8 * 1024 * 1024)
    expect(heap() - before).toBeLessThan(48 * 1024 * 1024)
  }, 120_000)
})
