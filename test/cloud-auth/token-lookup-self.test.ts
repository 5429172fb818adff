import { describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { tokenStore } from '../../src/services/cloud-auth/index.ts'
import { createEc2Role, loginWorld, START } from './login-setup.ts'

async function loggedIn(roleFields: Record<string, unknown> = {}, options: Parameters<typeof loginWorld>[0] = {}) {
  const world = loginWorld(options)
  const instance = world.cloud.createInstance({ iam_role_name: 'web-app' })
  await createEc2Role(world, 'web-role', instance, { policies: 'dev', ...roleFields })
  const reply = await world.login({ role: 'web-role', pkcs7: world.cloud.identityDocument(instance.instance_id, 'rsa2048'), nonce: 'n-1' })
  expect(reply.status).toBe(200)
  return { world, instance, auth: reply.body.auth }
}

describe('GET /v1/auth/token/lookup-self', () => {
  it('returns the issued token in the real service shape', async () => {
    const { world, instance, auth } = await loggedIn({ token_ttl: '1h', token_explicit_max_ttl: '2h' })
    const reply = await world.lookupSelf(auth.client_token)
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ lease_id: '', renewable: false, lease_duration: 0, wrap_info: null, warnings: null, auth: null })
    expect(reply.body.data).toEqual({
      accessor: auth.accessor,
      creation_time: Date.parse(START) / 1000,
      creation_ttl: 3600,
      display_name: 'cloud',
      entity_id: auth.entity_id,
      expire_time: '2026-03-01T13:00:00Z',
      explicit_max_ttl: 7200,
      id: auth.client_token,
      issue_time: START,
      meta: { account_id: instance.account_id, auth_type: 'ec2', role: 'web-role', role_tag_max_ttl: '0s' },
      num_uses: 0,
      orphan: true,
      path: 'auth/cloud/login',
      policies: ['default', 'dev'],
      renewable: true,
      ttl: 3600,
      type: 'service',
    })
  })

  it('counts the TTL down on the emulator clock and refuses the token once expired', async () => {
    const { world, auth } = await loggedIn({ token_ttl: '1h' })
    world.doppel.clock.advance('20m')
    expect((await world.lookupSelf(auth.client_token)).body.data.ttl).toBe(2400)
    world.doppel.clock.advance('40m')
    expect(await world.lookupSelf(auth.client_token)).toEqual({ status: 403, body: { errors: ['permission denied'] } })
    expect(tokenStore(world.doppel).tokens.has(auth.client_token)).toBe(false)
  })

  it('carries last_renewal and last_renewal_time once the token was renewed, as a real server does', async () => {
    const { world, auth } = await loggedIn({ token_ttl: '1h', token_max_ttl: '2h' })
    expect(Object.keys((await world.lookupSelf(auth.client_token)).body.data)).not.toContain('last_renewal')
    world.doppel.clock.advance('10m')
    const renew = await world.doppel.fetch('http://doppel.test/v1/auth/token/renew-self', { method: 'POST', headers: { 'X-Service-Token': auth.client_token } })
    expect(renew.status).toBe(200)
    const data = (await world.lookupSelf(auth.client_token)).body.data
    expect(data).toMatchObject({ last_renewal: '2026-03-01T12:10:00Z', last_renewal_time: Date.parse(START) / 1000 + 600 })
    // Go prints the map's keys sorted
    expect(Object.keys(data)).toEqual([...Object.keys(data)].sort())
  })

  it('takes the token from Authorization: Bearer too', async () => {
    const { world, auth } = await loggedIn()
    expect((await world.lookupSelf(auth.client_token, 'Authorization')).body.data.id).toBe(auth.client_token)
  })

  it('refuses unknown tokens and requests without one', async () => {
    const { world } = await loggedIn()
    expect(await world.lookupSelf('hvs.unknown')).toEqual({ status: 403, body: { errors: ['permission denied'] } })
    const response = await world.doppel.fetch('http://doppel.test/v1/auth/token/lookup-self')
    expect(response.status).toBe(403)
  })

  it('gives a login token no management access', async () => {
    const { world, auth } = await loggedIn()
    const response = await world.doppel.fetch('http://doppel.test/v1/auth/cloud/role/web-role', { headers: { 'X-Service-Token': auth.client_token } })
    expect(response.status).toBe(403)
  })

  it('records the token on the emulator, inspectable', async () => {
    const { world, auth } = await loggedIn({ token_num_uses: 2 })
    const record = tokenStore(world.doppel).lookup(auth.client_token)
    expect(record).toMatchObject({ accessor: auth.accessor, type: 'service', num_uses: 2, path: 'auth/cloud/login' })
    expect(tokenStore(world.doppel).lookupByAccessor(auth.accessor)?.id).toBe(auth.client_token)
    expect((await world.lookupSelf(auth.client_token)).body.data.num_uses).toBe(1)
    expect((await world.lookupSelf(auth.client_token)).status).toBe(200)
    expect((await world.lookupSelf(auth.client_token)).status).toBe(403)
  })

  it('refuses a token used outside its bound CIDRs', async () => {
    const { world, auth } = await loggedIn({ token_bound_cidrs: '127.0.0.0/8' })
    expect((await world.lookupSelf(auth.client_token)).status).toBe(200)
    const response = await world.doppel.handle(
      new Request('http://doppel.test/v1/auth/token/lookup-self', { headers: { 'X-Service-Token': auth.client_token } }),
      { remoteAddress: '10.0.0.1' },
    )
    expect(response.status).toBe(403)
  })

  it('looks up batch tokens', async () => {
    const { world, auth } = await loggedIn({ token_type: 'batch' })
    const data = (await world.lookupSelf(auth.client_token)).body.data
    expect(data).toMatchObject({ type: 'batch', accessor: '', renewable: false, id: auth.client_token })
  })

  it('reads the vault profile token header', async () => {
    const { world, auth } = await loggedIn({}, { profile: 'vault' })
    expect((await world.lookupSelf(auth.client_token, 'X-Vault-Token')).status).toBe(200)
  })
})

describe('lookup-self of a root token', () => {
  const lookup = (doppel: ReturnType<typeof createDoppel>, token = 'root') =>
    doppel.fetch(new Request('http://127.0.0.1:8200/v1/auth/token/lookup-self', { headers: { 'X-Service-Token': token } })).then((r) => r.json())

  it('answers as the real dev server does for the root token it was given: made through auth/token/create at start', async () => {
    const start = '2026-03-01T12:00:00.25Z'
    const doppel = createDoppel({ seed: 7, clock: { start, frozen: true }, rootTokens: ['root', 'other'] })
    doppel.clock.advance(3_600_000)
    const { data } = await lookup(doppel)
    expect(data).toEqual({
      accessor: expect.stringMatching(/^[A-Za-z0-9]{24}$/),
      creation_time: Math.floor(Date.parse(start) / 1000),
      creation_ttl: 0,
      display_name: 'token',
      entity_id: '',
      expire_time: null,
      explicit_max_ttl: 0,
      id: 'root',
      issue_time: '2026-03-01T12:00:00.25Z',
      meta: null,
      num_uses: 0,
      orphan: true,
      path: 'auth/token/create',
      policies: ['root'],
      renewable: false,
      ttl: 0,
      type: 'service',
    })
    // One accessor a root token, kept across lookups and resets; another root token has its own.
    expect((await lookup(doppel)).data.accessor).toBe(data.accessor)
    await doppel.reset()
    expect((await lookup(doppel)).data.accessor).toBe(data.accessor)
    expect((await lookup(doppel, 'other')).data.accessor).not.toBe(data.accessor)
    // Repeatable with the seed, as every other id is.
    expect((await lookup(createDoppel({ seed: 7, clock: { start } }))).data.accessor).toBe(data.accessor)
    expect((await lookup(createDoppel({ seed: 8, clock: { start } }))).data.accessor).not.toBe(data.accessor)
  })
})

describe('what a dev server makes once, across a snapshot', () => {
  it('a restored instance keeps the root token accessor and the cluster of the one saved, until a reset', async () => {
    const lookup = (doppel: ReturnType<typeof createDoppel>) =>
      doppel.fetch(new Request('http://127.0.0.1:8200/v1/auth/token/lookup-self', { headers: { 'X-Vault-Token': 'root' } })).then((r) => r.json())
    const health = (doppel: ReturnType<typeof createDoppel>) => doppel.fetch('http://127.0.0.1:8200/v1/sys/health').then((r) => r.json())
    const saved = createDoppel({ profile: 'vault' })
    const restored = createDoppel({ profile: 'vault' })
    const own = (await lookup(restored)).data.accessor
    expect(own).not.toBe((await lookup(saved)).data.accessor)
    restored.restore(saved.snapshot())
    expect((await lookup(restored)).data.accessor).toBe((await lookup(saved)).data.accessor)
    expect((await health(restored)).cluster_id).toBe((await health(saved)).cluster_id)
    await restored.reset()
    expect((await lookup(restored)).data.accessor).toBe(own)
  })
})
