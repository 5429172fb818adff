import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { tokenStore } from '../../src/services/cloud-auth/index.ts'
import { BASE, createEc2Role, loginWorld, type JsonReply, type LoginWorld } from './login-setup.ts'

// sys/capabilities-self, sys/capabilities and sys/capabilities-accessor (docs/reference/cloud-auth.md §7.4),
// and the default policy's rules behind them and behind the self routes, through the public surface. The
// answers are the real server's (test/real-server/capabilities.test.ts sends the same kinds of call to both).

async function call(world: LoginWorld, path: string, body?: unknown, token = 'root', method = 'POST'): Promise<JsonReply> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Service-Token': token }
  const response = await world.doppel.fetch(`${BASE}/v1/${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) })
  const text = await response.text()
  return { status: response.status, body: text === '' ? null : JSON.parse(text) }
}

async function createToken(world: LoginWorld, body: Record<string, unknown>): Promise<{ client_token: string; accessor: string }> {
  const reply = await call(world, 'auth/token/create', { ttl: '1h', ...body })
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return reply.body.auth
}

const self = async (world: LoginWorld, token: string, paths: unknown) => call(world, 'sys/capabilities-self', { paths }, token)
const multi = (message: string) => `1 error occurred:\n\t* ${message}\n\n`
const ALL = ['create', 'delete', 'list', 'read', 'update']

/** Paths and what Vault's default policy grants on them, as the real server answered. */
const DEFAULT_POLICY_ANSWERS: [string, string[]][] = [
  ['auth/token/lookup-self', ['read']],
  ['/auth/token/lookup-self', ['read']],
  ['//auth/token/lookup-self', ['read']],
  ['auth/token/lookup-self/', ['read']],
  ['auth//token/lookup-self', ['deny']],
  ['AUTH/TOKEN/LOOKUP-SELF', ['deny']],
  ['auth/token/renew-self', ['update']],
  ['auth/token/revoke-self', ['update']],
  ['sys/capabilities-self', ['update']],
  ['cubbyhole', ['deny']],
  ['cubbyhole/', ALL],
  ['cubbyhole/x/y', ALL],
  ['cubbyholex', ['deny']],
  ['sys/tools/hash', ['update']],
  ['sys/tools/hash/', ['update']],
  ['sys/tools/hash/sha2-256', ['update']],
  ['sys/tools/hashx', ['deny']],
  ['identity/oidc/provider/p/authorize', ['read', 'update']],
  ['identity/oidc/provider//authorize', ['read', 'update']],
  ['identity/oidc/provider/p/authorize/x', ['deny']],
  ['identity/oidc/provider/a/b/authorize', ['deny']],
  ['sys/wrapping/wrap', ['update']],
  ['sys/wrapping/rewrap', ['deny']],
  ['sys/leases/renew', ['update']],
  ['sys/leases/renew/x', ['deny']],
  ['sys/renew', ['update']],
  ['sys/control-group/request', ['update']],
  ['sys/internal/ui/resultant-acl', ['read']],
  ['identity/mfa/method/totp/generate', ['deny']],
  ['auth/cloud/role/x', ['deny']],
  ['identity/entity/id/x', ['deny']],
  ['identity/entity/id/{{identity.entity.id}}', ['deny']],
]

describe('sys/capabilities-self', () => {
  it("answers the default policy's capabilities on each path, in data and at the top level, and capabilities for one path", async () => {
    const world = loginWorld()
    const { client_token } = await createToken(world, { policies: ['dev'] })
    for (const [path, capabilities] of DEFAULT_POLICY_ANSWERS) {
      const reply = await self(world, client_token, [path])
      expect(reply.status, path).toBe(200)
      expect(reply.body.data, path).toEqual({ [path]: capabilities, capabilities })
      expect(reply.body, path).toMatchObject({ [path]: capabilities, capabilities, auth: null, warnings: null, mount_type: 'system' })
    }
    const two = await self(world, client_token, 'cubbyhole/a , sys/tools/random')
    expect(two.body.data).toEqual({ 'cubbyhole/a': ALL, 'sys/tools/random': ['deny'] })
    expect(two.body.capabilities).toBeUndefined()
  })

  it("gives a root token, or one with the root policy, root; a token without the default policy, nothing: it may not even ask", async () => {
    const world = loginWorld()
    expect((await self(world, 'root', ['anything'])).body.data).toEqual({ anything: ['root'], capabilities: ['root'] })
    const child = await createToken(world, {})
    expect((await self(world, child.client_token, ['x'])).body.data.x).toEqual(['root'])
    const bare = await createToken(world, { policies: ['dev'], no_default_policy: true })
    expect(await self(world, bare.client_token, ['x'])).toEqual({ status: 403, body: { errors: [multi('permission denied')] } })
    expect((await call(world, 'sys/capabilities', { token: bare.client_token, paths: ['auth/token/lookup-self'] })).body.data.capabilities).toEqual(['deny'])
    // The self routes follow the same rules: without the default policy a token may not look itself up.
    for (const [method, path] of [['GET', 'lookup-self'], ['POST', 'renew-self'], ['POST', 'revoke-self']]) {
      expect((await call(world, `auth/token/${path}`, method === 'POST' ? {} : undefined, bare.client_token, method!)).status, path).toBe(403)
    }
    expect((await call(world, 'auth/token/lookup', { token: bare.client_token })).status).toBe(200)
  })

  it("lets a login's token read its own entity by id", async () => {
    const world = loginWorld()
    const instance = world.cloud.createInstance({})
    await createEc2Role(world, 'web', instance, { policies: 'dev' })
    const login = await world.login({ role: 'web', pkcs7: world.cloud.identityDocument(instance.instance_id, 'rsa2048'), nonce: 'n-1' })
    const { client_token, entity_id } = login.body.auth
    expect(entity_id).not.toBe('')
    const reply = await self(world, client_token, [`identity/entity/id/${entity_id}`, `identity/entity/id/${entity_id}/`, `identity/entity/id/${entity_id}x`])
    expect(reply.body.data).toEqual({ [`identity/entity/id/${entity_id}`]: ['read'], [`identity/entity/id/${entity_id}/`]: ['read'], [`identity/entity/id/${entity_id}x`]: ['deny'] })
    const other = await createToken(world, { policies: ['dev'] })
    expect((await self(world, other.client_token, [`identity/entity/id/${entity_id}`])).body.data.capabilities).toEqual(['deny'])
  })

  it('reads paths as Vault does: a comma list, the deprecated path, trimmed, each once; warns of unknown fields', async () => {
    const world = loginWorld()
    const { client_token } = await createToken(world, { policies: ['dev'] })
    expect((await self(world, client_token, ' a , b ')).body.data).toEqual({ a: ['deny'], b: ['deny'] })
    expect((await self(world, client_token, ['a', 'a'])).body.data).toEqual({ a: ['deny'] })
    expect((await call(world, 'sys/capabilities-self', { path: 'auth/token/lookup-self' }, client_token)).body.data.capabilities).toEqual(['read'])
    expect((await call(world, 'sys/capabilities-self', { path: ['x'], paths: ['y'] }, client_token)).body.data).toEqual({ y: ['deny'], capabilities: ['deny'] })
    const warned = await call(world, 'sys/capabilities-self', { paths: ['x'], bogus: 1, token: 'ignored', namespace: 'n' }, client_token)
    expect(warned.body.warnings).toEqual(['Endpoint ignored these unrecognized parameters: [bogus]'])
    // A path named as an object's prototype is a key of its own (a literal would set the prototype).
    expect((await self(world, 'root', ['__proto__'])).body.data).toEqual(JSON.parse('{"__proto__":["root"],"capabilities":["root"]}'))
  })

  it('refuses as Vault does', async () => {
    const world = loginWorld()
    const { client_token } = await createToken(world, { policies: ['dev'] })
    for (const paths of [undefined, [], '', null]) {
      expect(await call(world, 'sys/capabilities-self', paths === undefined ? {} : { paths }, client_token)).toEqual({ status: 400, body: { errors: ['paths must be supplied'] } })
    }
    expect(await self(world, client_token, ['a', ''])).toEqual({ status: 400, body: { errors: [multi('missing path')] } })
    expect(await self(world, 'nobody', ['x'])).toEqual({ status: 403, body: { errors: ['permission denied'] } })
    expect(await call(world, 'sys/capabilities-self', undefined, client_token, 'GET')).toEqual({ status: 403, body: { errors: [multi('permission denied')] } })
    expect(await call(world, 'sys/capabilities-self', undefined, 'root', 'GET')).toEqual({ status: 405, body: { errors: [multi('unsupported operation')] } })
    expect(await call(world, 'sys/capabilities-self/', { paths: ['x'] }, client_token)).toEqual({ status: 400, body: { errors: ["cannot write to a path ending in '/'"] } })
  })

  it('counts the request as a use of the token first: a token it used up is then no token to ask about', async () => {
    const world = loginWorld()
    const once = await createToken(world, { policies: ['dev'], num_uses: 1 })
    expect(await self(world, once.client_token, ['x'])).toEqual({ status: 400, body: { errors: [multi('invalid token')] } })
    expect((await self(world, once.client_token, ['x'])).status).toBe(403)
    const twice = await createToken(world, { policies: ['dev'], num_uses: 3 })
    await call(world, 'sys/capabilities', { token: twice.client_token, paths: ['x'] })
    await self(world, twice.client_token, [])
    expect((await call(world, 'auth/token/lookup', { token: twice.client_token })).body.data.num_uses).toBe(2)
  })
})

describe('sys/capabilities and sys/capabilities-accessor', () => {
  it("answer a named token's capabilities to a root token only", async () => {
    const world = loginWorld()
    const token = await createToken(world, { policies: ['dev'] })
    expect((await call(world, 'sys/capabilities', { token: token.client_token, paths: ['auth/token/renew-self'] })).body.data).toEqual({ 'auth/token/renew-self': ['update'], capabilities: ['update'] })
    expect((await call(world, 'sys/capabilities-accessor', { accessor: token.accessor, paths: ['cubbyhole/x', 'y'] })).body.data).toEqual({ 'cubbyhole/x': ALL, y: ['deny'] })
    expect((await call(world, 'sys/capabilities', { token: 'root', paths: ['x'] })).body.data.x).toEqual(['root'])
    expect(await call(world, 'sys/capabilities', { token: token.client_token, paths: ['x'] }, token.client_token)).toEqual({ status: 403, body: { errors: [multi('permission denied')] } })
    expect((await call(world, 'sys/capabilities-accessor', { accessor: token.accessor, paths: ['x'] }, token.client_token)).status).toBe(403)
  })

  it('refuse as Vault does: no token is the 500 of an internal error in the vault profile, 400 in the service profile', async () => {
    const world = loginWorld()
    const token = await createToken(world, { policies: ['dev'] })
    expect(await call(world, 'sys/capabilities', { token: 'bogus', paths: ['x'] })).toEqual({ status: 400, body: { errors: [multi('invalid token')] } })
    expect(await call(world, 'sys/capabilities', { token: 'bogus', paths: ['', 'x'] })).toEqual({ status: 400, body: { errors: [multi('missing path')] } })
    expect(await call(world, 'sys/capabilities', { token: token.client_token })).toEqual({ status: 400, body: { errors: ['paths must be supplied'] } })
    for (const body of [{ paths: ['x'] }, { token: '', paths: ['x'] }, { token: null, paths: ['x'] }]) {
      expect(await call(world, 'sys/capabilities', body), JSON.stringify(body)).toEqual({ status: 400, body: { errors: ['no token found'] } })
    }
    const vault = loginWorld({ profile: 'vault' })
    const response = await vault.doppel.fetch(`${BASE}/v1/sys/capabilities`, { method: 'POST', headers: { 'X-Vault-Token': 'root' }, body: JSON.stringify({ paths: ['x'] }) })
    expect({ status: response.status, body: await response.json() }).toEqual({ status: 500, body: { errors: [multi('no token found')] } })
    expect(await call(world, 'sys/capabilities-accessor', { paths: ['x'] })).toEqual({ status: 400, body: { errors: ['missing accessor'] } })
    expect(await call(world, 'sys/capabilities-accessor', { accessor: 'bogus', paths: ['x'] })).toEqual({ status: 400, body: { errors: [multi('invalid accessor')] } })
    expect(await call(world, 'sys/capabilities-accessor', { accessor: 'bogus' })).toEqual({ status: 400, body: { errors: [multi('invalid accessor')] } })
    expect((await call(world, 'sys/capabilities', { token: [1], paths: ['x'] })).body.errors[0]).toMatch(/^Field validation failed: error converting input for field "token"/)
  })
})

describe('secrets', () => {
  it('the journal never shows the token a capabilities call names or is made with', async () => {
    const world = loginWorld()
    await call(world, 'auth/token/create', { id: 'my-secret-token-id', policies: ['dev'] })
    await call(world, 'sys/capabilities', { token: 'my-secret-token-id', paths: ['x'] })
    await self(world, 'my-secret-token-id', ['x'])
    const text = await (await world.doppel.fetch(`${BASE}/_doppel/journal`, { headers: { 'X-Service-Token': 'root' } })).text()
    expect(text).toContain('sys/capabilities')
    expect(text).not.toContain('my-secret-token-id')
  })
})

describe('bad input', () => {
  it('any body to any of the three gets 200 or a 4xx with the errors body, and changes nothing but a use of the caller', async () => {
    const world = loginWorld()
    const { client_token, accessor } = await createToken(world, { policies: ['dev'] })
    const path = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('cubbyhole/', 'auth/token/lookup-self/', 'identity/oidc/provider/+/authorize', '__proto__', 'valueOf', '/', '', '+', '*'))
    const value = fc.oneof(path, fc.array(path, { maxLength: 4 }), fc.integer({ min: -5, max: 5 }), fc.boolean(), fc.constant(null), fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }))
    const body = fc.dictionary(fc.constantFrom('paths', 'path', 'token', 'accessor', 'namespace', 'other'), value, { maxKeys: 4 })
    const target = fc.constantFrom(['sys/capabilities-self', client_token], ['sys/capabilities-self', 'root'], ['sys/capabilities', 'root'], ['sys/capabilities-accessor', 'root'])
    await fc.assert(
      fc.asyncProperty(target, body, async ([route, caller], sent) => {
        const tokens = tokenStore(world.doppel).tokens.size
        const reply = await call(world, route, { ...sent, ...(route.endsWith('accessor') && typeof sent.accessor === 'boolean' && { accessor }) }, caller)
        expect(reply.status, JSON.stringify(sent)).toBeLessThan(500)
        if (reply.status >= 400) expect(reply.body.errors).toHaveLength(1)
        else expect(Object.values(reply.body.data).flat().every((capability) => [...ALL, 'root', 'deny'].includes(capability as string))).toBe(true)
        expect(tokenStore(world.doppel).tokens.size).toBe(tokens)
      }),
      { numRuns: 300 },
    )
  })
})
