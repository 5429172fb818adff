import { describe, expect, it } from 'vitest'
import { tokenStore } from '../../src/services/cloud-auth/index.ts'
import { BASE, createEc2Role, loginWorld, type JsonReply, type LoginWorld } from './login-setup.ts'

// The token store's routes that name a token in the request (docs/reference/cloud-auth.md §7.1), through
// the public surface: a root token looks up, renews and revokes a login's token by id or by accessor.

async function loggedIn(roleFields: Record<string, unknown> = {}) {
  const world = loginWorld()
  const instance = world.cloud.createInstance({})
  await createEc2Role(world, 'web', instance, { policies: 'dev', token_ttl: '1h', token_max_ttl: '2h', ...roleFields })
  const reply = await world.login({ role: 'web', pkcs7: world.cloud.identityDocument(instance.instance_id, 'rsa2048'), nonce: 'n-1' })
  expect(reply.status).toBe(200)
  return { world, auth: reply.body.auth as { client_token: string; accessor: string } }
}

async function call(world: LoginWorld, path: string, body?: unknown, token: string | null = 'root', method = 'POST'): Promise<JsonReply> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', ...(token !== null && { 'X-Service-Token': token }) }
  const response = await world.doppel.fetch(`${BASE}/v1/auth/token/${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) })
  const text = await response.text()
  return { status: response.status, body: text === '' ? null : JSON.parse(text) }
}

const errors = (...messages: string[]) => ({ errors: messages })
const multi = (message: string) => `1 error occurred:\n\t* ${message}\n\n`

describe('auth/token/lookup and lookup-accessor', () => {
  it("answer lookup-self's data for the named token, the accessor's with the id left empty", async () => {
    const { world, auth } = await loggedIn({ token_bound_cidrs: '127.0.0.1/32,10.0.0.0/8' })
    const self = (await world.lookupSelf(auth.client_token)).body.data
    const byId = await call(world, 'lookup', { token: auth.client_token })
    expect(byId.status).toBe(200)
    expect(byId.body.data).toEqual(self)
    expect(self.bound_cidrs).toEqual(['127.0.0.1', '10.0.0.0/8'])
    const byQuery = await call(world, `lookup?token=${encodeURIComponent(auth.client_token)}`, undefined, 'root', 'GET')
    expect(byQuery.body.data).toEqual(self)
    const byAccessor = await call(world, 'lookup-accessor', { accessor: auth.accessor })
    expect(byAccessor.body.data).toEqual({ ...self, id: '' })
  })

  it('look up the caller itself when no token is named, and a root token by its accessor', async () => {
    const world = loginWorld()
    const own = await call(world, 'lookup', {})
    expect(own.body.data).toMatchObject({ id: 'root', policies: ['root'], path: 'auth/token/create' })
    const byAccessor = await call(world, 'lookup-accessor', { accessor: own.body.data.accessor })
    expect(byAccessor.body.data).toEqual({ ...own.body.data, id: '' })
  })

  it('count no use of the token looked up, which only its own calls spend', async () => {
    const { world, auth } = await loggedIn({ token_num_uses: 2 })
    for (let i = 0; i < 3; i++) expect((await call(world, 'lookup', { token: auth.client_token })).body.data.num_uses).toBe(2)
    expect((await world.lookupSelf(auth.client_token)).body.data.num_uses).toBe(1)
  })

  it('refuse a token not held, a missing or unknown accessor, with the real words; warn of unknown fields', async () => {
    const { world, auth } = await loggedIn()
    expect(await call(world, 'lookup', { token: 'hvs.nope' })).toEqual({ status: 403, body: errors('bad token') })
    expect(await call(world, 'lookup-accessor', {})).toEqual({ status: 400, body: errors(multi('missing accessor')) })
    expect(await call(world, 'lookup-accessor', { accessor: 'nope' })).toEqual({ status: 400, body: errors(multi('invalid accessor')) })
    const warned = await call(world, 'lookup-accessor', { accessor: auth.accessor, b: 1, a: 2 })
    expect(warned.body.warnings).toEqual(['Endpoint ignored these unrecognized parameters: [a b]'])
    expect(await call(world, 'lookup-accessor', undefined, 'root', 'GET')).toEqual({ status: 405, body: errors(multi('unsupported operation')) })
  })
})

describe('auth/token/renew and renew-accessor', () => {
  it("renew the named token as renew-self does, and count none of its uses", async () => {
    const { world, auth } = await loggedIn({ token_num_uses: 3 })
    world.doppel.clock.advance('10m')
    const renewed = await call(world, 'renew', { token: auth.client_token, increment: '30m' })
    expect(renewed.status).toBe(200)
    expect(renewed.body.auth).toMatchObject({ client_token: auth.client_token, accessor: auth.accessor, lease_duration: 1800, num_uses: 3 })
    const byAccessor = await call(world, 'renew-accessor', { accessor: auth.accessor })
    expect(byAccessor.body.auth).toMatchObject({ client_token: '', accessor: auth.accessor, lease_duration: 3600 })
    const data = (await call(world, 'lookup', { token: auth.client_token })).body.data
    expect(data).toMatchObject({ ttl: 3600, num_uses: 3, last_renewal_time: Date.parse('2026-03-01T12:10:00Z') / 1000 })
  })

  it('refuse what the real service refuses, the field check first', async () => {
    const { world } = await loggedIn()
    expect(await call(world, 'renew', {})).toEqual({ status: 400, body: errors('missing token ID') })
    expect(await call(world, 'renew', { token: 'hvs.nope' })).toEqual({ status: 400, body: errors('token not found') })
    expect(await call(world, 'renew', { token: 'root' })).toEqual({ status: 400, body: errors('lease is not renewable') })
    expect((await call(world, 'renew', { token: 'hvs.nope', increment: 'x' })).body.errors[0]).toMatch(/^Field validation failed: error converting input for field "increment"/)
    expect(await call(world, 'renew-accessor', { accessor: 'nope' })).toEqual({ status: 400, body: errors(multi('invalid accessor')) })
  })

  it('refuse a batch token, which cannot be renewed or revoked', async () => {
    const { world, auth } = await loggedIn({ token_type: 'batch' })
    expect(await call(world, 'renew', { token: auth.client_token })).toEqual({ status: 400, body: errors('batch tokens cannot be renewed') })
    expect(await call(world, 'revoke', { token: auth.client_token })).toEqual({ status: 400, body: errors('batch tokens cannot be revoked') })
    expect((await call(world, 'lookup', { token: auth.client_token })).body.data.type).toBe('batch')
  })
})

describe('auth/token/revoke, revoke-orphan and revoke-accessor', () => {
  it('revoke the named token; again is 204 by id, a 200 warning by accessor, 400 as an orphan', async () => {
    const { world, auth } = await loggedIn()
    expect((await call(world, 'revoke-accessor', { accessor: auth.accessor })).status).toBe(204)
    expect(tokenStore(world.doppel).tokens.has(auth.client_token)).toBe(false)
    expect((await world.lookupSelf(auth.client_token)).status).toBe(403)
    expect((await call(world, 'revoke', { token: auth.client_token })).status).toBe(204)
    const again = await call(world, 'revoke-accessor', { accessor: auth.accessor, x: 1 })
    expect(again).toMatchObject({ status: 200, body: { data: null, warnings: ['No token found with this accessor', 'Endpoint ignored these unrecognized parameters: [x]'] } })
    expect(await call(world, 'revoke-orphan', { token: auth.client_token })).toEqual({ status: 400, body: errors('token to revoke not found') })
    expect(await call(world, 'revoke', {})).toEqual({ status: 400, body: errors('missing token ID') })
  })

  it('revoke by id and as an orphan', async () => {
    for (const path of ['revoke', 'revoke-orphan']) {
      const { world, auth } = await loggedIn()
      expect((await call(world, path, { token: auth.client_token })).status, path).toBe(204)
      expect((await world.lookupSelf(auth.client_token)).status, path).toBe(403)
    }
  })

  it('leave a configured root token in place', async () => {
    const world = loginWorld()
    expect((await call(world, 'revoke', { token: 'root' })).status).toBe(204)
    expect((await call(world, 'lookup', {})).status).toBe(200)
  })
})

describe('LIST auth/token/accessors', () => {
  it('lists the accessor of every live token, root tokens too, sorted; an expired one and a batch token (none) are not there', async () => {
    const { world, auth } = await loggedIn()
    const instance = world.cloud.createInstance({})
    await createEc2Role(world, 'batch', instance, { token_type: 'batch' })
    expect((await world.login({ role: 'batch', pkcs7: world.cloud.identityDocument(instance.instance_id, 'rsa2048'), nonce: 'n-2' })).status).toBe(200)
    const rootAccessor = (await call(world, 'lookup', {})).body.data.accessor
    const listed = await call(world, 'accessors', undefined, 'root', 'LIST')
    expect(listed.body.data.keys).toEqual([auth.accessor, rootAccessor].sort())
    world.doppel.clock.advance('61m')
    expect((await call(world, 'accessors?list=true', undefined, 'root', 'GET')).body.data.keys).toEqual([rootAccessor])
    expect(await call(world, 'accessors', undefined, 'root', 'GET')).toEqual({ status: 405, body: errors(multi('unsupported operation')) })
  })
})

describe('who may call them', () => {
  it("refuses a login's token with the ACL's multierror, and a token field that is no string before the token check", async () => {
    const { world, auth } = await loggedIn()
    for (const path of ['lookup', 'lookup-accessor', 'renew', 'renew-accessor', 'revoke', 'revoke-orphan', 'revoke-accessor', 'accessors?list=true']) {
      expect(await call(world, path, { token: auth.client_token, accessor: auth.accessor }, auth.client_token), path).toEqual({ status: 403, body: errors(multi('permission denied')) })
    }
    for (const token of [null, ['a'], true, { a: 1 }]) {
      for (const path of ['lookup', 'renew', 'revoke', 'revoke-orphan']) {
        expect(await call(world, path, { token }, null), `${path} ${JSON.stringify(token)}`).toEqual({ status: 403, body: errors('invalid token') })
      }
    }
    // lookup-accessor reads no token field: its caller is checked first
    expect(await call(world, 'lookup-accessor', { token: null }, null)).toEqual({ status: 403, body: errors('permission denied') })
    expect(tokenStore(world.doppel).tokens.has(auth.client_token)).toBe(true)
  })

  it('explains a refusal in the journal without naming the token', async () => {
    const { world } = await loggedIn()
    await call(world, 'lookup', { token: 'hvs.secret-looking' })
    const entry = world.doppel.journal.entries().at(-1)!
    expect(entry.explanation).toMatchObject({ rule: 'token' })
    expect(JSON.stringify(entry.explanation)).not.toContain('hvs.secret-looking')
  })
})

describe('auth/token/tidy', () => {
  it("answers 202 with the real store's warning, keeping live tokens; root tokens only, updates only", async () => {
    const { world, auth } = await loggedIn()
    const live = await loggedIn()
    expect(await call(live.world, 'tidy', undefined, live.auth.client_token)).toEqual({ status: 403, body: errors(multi('permission denied')) })
    expect((await call(world, 'tidy', undefined, 'root', 'GET')).status).toBe(405)
    const reply = await call(world, 'tidy')
    expect(reply.status).toBe(202)
    expect(reply.body).toMatchObject({ data: null, auth: null, warnings: ["Tidy operation successfully started. Any information from the operation will be printed to Vault's server logs."] })
    expect(tokenStore(world.doppel).tokens.has(auth.client_token)).toBe(true)
  })
})
