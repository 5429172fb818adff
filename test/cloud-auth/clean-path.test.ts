import fc from 'fast-check'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { createHandlers } from '../../src/faces/msw/index.ts'
import { createDoppelServer, listen, type RunningServer } from '../../src/faces/server/index.ts'
import { TenantRegistry } from '../../src/features/tenants/index.ts'
import { rawExchange } from '../server/raw-http.ts'

// docs/reference/cloud-auth.md §1.4 "Clean paths": the real server's HTTP layer redirects a path that is not clean
// (Go's ServeMux, observed on OpenBao's server) before any route or token check.
const ORIGIN = 'http://doppel.test'
const TOKEN = { 'X-Service-Token': 'root' }
const EC2_ROLE = JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-1' })

describe('a /v1/ path that is not clean is redirected with 307, as the real server does', () => {
  it('answers a GET with the Location, an HTML link and no-store, looking at no token', async () => {
    const doppel = createDoppel({ seed: 1 })
    const answer = await doppel.handle(new Request(`${ORIGIN}/v1/auth/cloud//role/x?list=true`))
    expect(answer.status).toBe(307)
    expect(Object.fromEntries(answer.headers)).toEqual({
      'cache-control': 'no-store',
      'content-type': 'text/html; charset=utf-8',
      location: '/v1/auth/cloud/role/x?list=true',
    })
    expect(await answer.text()).toBe('<a href="/v1/auth/cloud/role/x?list=true">Temporary Redirect</a>.\n\n')
    expect(doppel.journal.entries().at(-1)!.explanation).toEqual({
      rule: 'clean path',
      seen: '/v1/auth/cloud//role/x',
      expected: '/v1/auth/cloud/role/x',
      hint: expect.stringContaining('%2F'),
    })
  })

  it('answers a write with no body and changes nothing; HEAD gets the type but no body', async () => {
    const doppel = createDoppel({ seed: 1 })
    const before = doppel.store.snapshot()
    const post = await doppel.handle(new Request(`${ORIGIN}/v1/auth/cloud/role//web`, { method: 'POST', headers: TOKEN, body: EC2_ROLE }))
    expect(post.status).toBe(307)
    expect(post.headers.get('location')).toBe('/v1/auth/cloud/role/web')
    expect(post.headers.get('content-type')).toBeNull()
    expect(await post.text()).toBe('')
    expect(doppel.store.snapshot()).toEqual(before)
    const head = await doppel.handle(new Request(`${ORIGIN}/v1//sys/auth`, { method: 'HEAD' }))
    expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([307, 'text/html; charset=utf-8', ''])
  })

  it('leaves a slash sent percent-encoded alone: a role tag holding "//" reaches the deny list', async () => {
    const doppel = createDoppel({ seed: 1 })
    const call = (method: string, path: string, body?: string) => doppel.handle(new Request(`${ORIGIN}/v1/auth/cloud/${path}`, { method, headers: TOKEN, body }))
    expect((await call('POST', 'role/web', JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-1', role_tag: 'VaultRole' }))).status).toBe(204)
    let tag = ''
    // Tags carry a random nonce and an HMAC in base64: make them until one holds "//".
    while (!tag.includes('//')) tag = (await (await call('POST', 'role/web/tag')).json()).data.tag_value
    expect((await call('POST', `roletag-denylist/${tag}`)).status).toBe(307)
    expect((await call('POST', `roletag-denylist/${encodeURIComponent(tag)}`)).status).toBe(204)
    expect((await (await call('LIST', 'roletag-denylist')).json()).data.keys).toEqual([tag])
  })

  it('keeps a tenant in its Location', async () => {
    const root = createDoppel({ seed: 1 })
    const tenants = new TenantRegistry(root, { maxTenants: 1, idleTimeoutMs: 60_000 })
    const answer = await tenants.handle(new Request(`${ORIGIN}/t/job-1/v1/auth/cloud//roles`))
    expect([answer.status, answer.headers.get('location')]).toEqual([307, '/t/job-1/v1/auth/cloud/roles'])
  })

  it('escapes the Location as Go does: a percent sign comes back as %25, other marks %-escaped', async () => {
    const doppel = createDoppel({ seed: 1 })
    const answer = await doppel.handle(new Request(`${ORIGIN}/v1/auth/cloud//role/a%2Fb!(c)`, { headers: TOKEN }))
    expect(answer.headers.get('location')).toBe('/v1/auth/cloud/role/a%252Fb%21%28c%29')
  })

  it('redirects exactly the paths with repeated slashes, to the path with single ones (property)', async () => {
    const doppel = createDoppel({ seed: 1 })
    const segment = fc.constantFrom('', '', 'role', 'roles', 'x', 'sys', 'auth', 'cloud', 'a-b.c')
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { maxLength: 6 }), fc.boolean(), async (segments, trailing) => {
        const path = `/v1/${segments.join('/')}${trailing ? '/' : ''}`
        const answer = await doppel.handle(new Request(`${ORIGIN}${path}`, { headers: TOKEN }))
        const clean = path.replace(/\/{2,}/g, '/')
        if (clean === path) expect(answer.status).not.toBe(307)
        else expect([answer.status, answer.headers.get('location')]).toEqual([307, clean])
      }),
      { numRuns: 300 },
    )
  })
})

describe('over HTTP, "." and ".." segments as the client sent them are redirected too', () => {
  let running: RunningServer
  beforeAll(async () => {
    running = await listen(createDoppelServer(createDoppel({ seed: 1 })), 0, '127.0.0.1')
  })
  afterAll(() => running.close())

  for (const [sent, location] of [
    ['/v1/auth/cloud/./roles', '/v1/auth/cloud/roles'],
    ['/v1/auth/cloud/role/../roles/', '/v1/auth/cloud/roles/'],
    ['/v1/auth/cloud/roles/.', '/v1/auth/cloud/roles'],
  ]) {
    it(`${sent} → ${location}`, async () => {
      const text = await rawExchange(running.port, [`GET ${sent} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`], 1)
      expect(text).toMatch(/^HTTP\/1\.1 307 Temporary Redirect\r\n/)
      expect(text.toLowerCase()).toContain(`\r\nlocation: ${location}\r\n`)
    })
  }
})

describe('MSW handlers', () => {
  const doppel = createDoppel({ seed: 1 })
  const server = setupServer(...createHandlers(doppel, { baseUrl: ORIGIN, cloud: false }))
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
  afterAll(() => server.close())

  it('a fetch that follows the redirect is answered at the clean path', async () => {
    await fetch(`${ORIGIN}/v1/auth/cloud/role/web`, { method: 'POST', headers: TOKEN, body: EC2_ROLE })
    const answer = await fetch(`${ORIGIN}/v1/auth/cloud//roles?list=true`, { headers: TOKEN })
    expect(answer.redirected).toBe(true)
    expect((await answer.json()).data.keys).toEqual(['web'])
  })
})
