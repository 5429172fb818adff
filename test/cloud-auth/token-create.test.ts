import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/index.ts'
import { tokenStore } from '../../src/services/cloud-auth/index.ts'
import { BASE, createEc2Role, loginWorld, type JsonReply, type LoginWorld } from './login-setup.ts'

// auth/token/create, create-orphan and create/<role> (docs/reference/cloud-auth.md §7.2) and the token
// roles (docs/reference/cloud-auth.md §7.3), through the public surface: what a root token creates, what the
// created tokens may do, how they renew and how they go. The answers are the real server's (OpenBao 2.7.2
// with Vault's token store rules, probed call by call; the real-server run compares them,
// test/real-server/token-create.test.ts).

async function call(world: LoginWorld, path: string, body?: unknown, token = 'root', method = 'POST'): Promise<JsonReply> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Service-Token': token }
  const response = await world.doppel.fetch(`${BASE}/v1/auth/token/${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) })
  const text = await response.text()
  return { status: response.status, body: text === '' ? null : JSON.parse(text) }
}

interface Created {
  client_token: string
  accessor: string
  entity_id: string
  token_type: string
  num_uses: number
  policies: string[]
  lease_duration: number
  renewable: boolean
  orphan: boolean
  metadata: Record<string, string> | null
}

async function create(world: LoginWorld, body: Record<string, unknown> = {}, token = 'root', path = 'create'): Promise<Created> {
  const reply = await call(world, path, body, token)
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return reply.body.auth as Created
}

const errors = (...messages: string[]) => ({ errors: messages })
/** Texts that name what every object inherits: a lookup table must not answer them. */
const PROTOTYPE_NAMES = ['valueOf', 'constructor', '__proto__', 'toString', 'hasOwnProperty']
const multi = (message: string) => `1 error occurred:\n\t* ${message}\n\n`
const lookup = async (world: LoginWorld, token: string) => call(world, 'lookup', { token })

describe('auth/token/create by a root token', () => {
  it('creates a child with the policies asked for and default, the token mount default TTL, and warns of policies that do not exist', async () => {
    const world = loginWorld()
    const reply = await call(world, 'create', { policies: ['B', ' a ', 'a', ''] })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ data: null, lease_duration: 0, renewable: false, warnings: ['Policy "a" does not exist', 'Policy "b" does not exist'], mount_type: 'token' })
    const auth = reply.body.auth
    expect(auth).toEqual({
      client_token: expect.stringMatching(/^hvs\.[A-Za-z0-9]{24}$/),
      accessor: expect.stringMatching(/^[A-Za-z0-9]{24}$/),
      policies: ['a', 'b', 'default'],
      token_policies: ['a', 'b', 'default'],
      metadata: null,
      lease_duration: 2764800,
      renewable: true,
      entity_id: '',
      token_type: 'service',
      orphan: false,
      mfa_requirement: null,
      num_uses: 0,
    })
    const data = (await lookup(world, auth.client_token)).body.data
    expect(data).toMatchObject({ path: 'auth/token/create', display_name: 'token', orphan: false, creation_ttl: 2764800, ttl: 2764800, meta: null, explicit_max_ttl: 0, type: 'service' })
    expect(data.period).toBeUndefined()
  })

  it("inherits the parent's policies when none are asked for: a root child, without expiry or renewal", async () => {
    const world = loginWorld()
    const child = await create(world)
    expect(child).toMatchObject({ policies: ['root'], lease_duration: 0, renewable: false, orphan: false })
    expect((await lookup(world, child.client_token)).body.data).toMatchObject({ expire_time: null, ttl: 0, policies: ['root'] })
    expect(await call(world, 'renew', { token: child.client_token })).toEqual({ status: 400, body: errors('lease is not renewable') })
  })

  it('takes each setting as the real store does: ttl, explicit max, uses, display name, metadata, period, orphans, type', async () => {
    const world = loginWorld()
    const a = await create(world, { policies: ['a'], ttl: '1h', explicit_max_ttl: '2h', num_uses: 3, display_name: 'My App!', meta: { z: '1', k: 'v' } })
    expect(a).toMatchObject({ lease_duration: 3600, num_uses: 3, metadata: { k: 'v', z: '1' } })
    expect((await lookup(world, a.client_token)).body.data).toMatchObject({ display_name: 'token-My-App', explicit_max_ttl: 7200, creation_ttl: 3600, meta: { k: 'v', z: '1' }, num_uses: 3 })
    expect((await create(world, { meta: ['k=v', 'x=y=z'], policies: ['a'] })).metadata).toEqual({ k: 'v', x: 'y=z' })
    expect((await create(world, { meta: 'k=v' })).metadata).toEqual({ k: 'v' })
    expect((await create(world, { meta: {}, policies: ['a'] })).metadata).toEqual({})
    expect((await create(world, { meta: null, policies: ['a'] })).metadata).toBeNull()
    expect((await lookup(world, (await create(world, { display_name: '  -x-- ' })).client_token)).body.data.display_name).toBe('token----x--')
    // Go's regexp replaces each character, not each UTF-16 half of one
    expect((await lookup(world, (await create(world, { display_name: '😀a' })).client_token)).body.data.display_name).toBe('token--a')
    const periodic = await create(world, { period: '1h', policies: ['a'] })
    expect(periodic.lease_duration).toBe(3600)
    expect((await lookup(world, periodic.client_token)).body.data.period).toBe(3600)
    expect((await call(world, 'create', { policies: ['a'], period: '1h', explicit_max_ttl: '30m' })).body).toMatchObject({
      auth: { lease_duration: 1800 },
      warnings: ['period of "1h" exceeded the effective max_ttl of "30m"; period value is capped accordingly', 'Policy "a" does not exist'],
    })
    expect((await call(world, 'create', { policies: ['a'], ttl: '100000h' })).body).toMatchObject({ auth: { lease_duration: 2764800 }, warnings: ['TTL of "100000h" exceeded the effective max_ttl of "768h"; TTL value is capped accordingly', 'Policy "a" does not exist'] })
    expect((await create(world, { policies: ['a'], lease: '1h' })).lease_duration).toBe(3600)
    expect((await create(world, { policies: ['a'], ttl: '1.5s' })).lease_duration).toBe(1)
    expect((await create(world, { policies: ['a'], renewable: 'false' })).renewable).toBe(false)
    expect((await create(world, { no_default_policy: true, policies: ['a'] })).policies).toEqual(['a'])
    expect((await create(world, { policies: ['default'] })).policies).toEqual(['default'])
    expect((await create(world, { policies: 'a,B , c' })).policies).toEqual(['a,b , c', 'default'])
    expect((await create(world, { policies: ['root', 'a'] })).policies).toEqual(['root'])
    expect((await create(world, { explicit_max_ttl: '1h' })).lease_duration).toBe(3600)
    expect((await create(world, { policies: ['a'] }, 'root', 'create-orphan')).orphan).toBe(true)
    expect((await create(world, { no_parent: true, policies: ['a'] })).orphan).toBe(true)
    const batch = await create(world, { type: 'batch', policies: ['a'], renewable: true, ttl: '20m' })
    expect(batch).toMatchObject({ client_token: expect.stringMatching(/^hvb\./), accessor: '', renewable: false, lease_duration: 1200 })
    expect((await lookup(world, batch.client_token)).body.data).toMatchObject({ type: 'batch', renewable: false, orphan: false })
    expect((await call(world, 'create', { policies: ['a'], ttl: 60, unknown: 1 })).body.warnings).toEqual(['Policy "a" does not exist', 'Endpoint ignored these unrecognized parameters: [unknown]'])
  })

  it("refuses what the real store refuses, in its order and words, and creates nothing", async () => {
    const world = loginWorld()
    const refusals: [Record<string, unknown>, string][] = [
      [{ type: 'batch', num_uses: 2 }, 'batch tokens cannot have "num_uses" set'],
      [{ type: 'batch', period: '1h' }, 'batch tokens cannot have "period" set'],
      [{ type: 'batch', explicit_max_ttl: 'x' }, '"explicit_max_ttl" value could not be parsed'],
      [{ type: 'batch' }, 'batch tokens cannot be root tokens'],
      [{ type: 'bogus', num_uses: -1 }, "invalid 'token_type' value"],
      [{ num_uses: -1, entity_alias: 'x' }, 'number of uses cannot be negative'],
      [{ entity_alias: 'x' }, "'entity_alias' is only allowed in combination with token role"],
      [{ ttl: '-1s' }, 'ttl must be positive'],
      [{ ttl: 'abc' }, 'time: invalid duration "abc"'],
      [{ explicit_max_ttl: '-5' }, 'explicit_max_ttl must be positive'],
      [{ period: '-5' }, 'period must be positive'],
      [{ lease: '-5' }, 'lease must be positive'],
      [{ ttl: 'x', period: 'y', explicit_max_ttl: 'z' }, 'time: invalid duration "z"'],
      [{ ttl: 'x', id: 'a.b' }, 'time: invalid duration "x"'],
      [{ policies: ['response-wrapping'], id: 'a.b' }, 'cannot assign policy "response-wrapping"'],
      [{ policies: ['control-group'] }, 'cannot assign policy "control-group"'],
      [{ id: 'hvs.abc' }, "custom token ID cannot have the 'hvs.' prefix"],
      [{ id: 's.abc' }, "custom token ID cannot have the 's.' prefix"],
      [{ id: 'a.b' }, "custom token ID cannot have a '.' in the value"],
      [{ id: 'root' }, 'cannot create a token with a duplicate ID'],
      [{ num_uses: 'x' }, 'Field validation failed: error converting input for field "num_uses": cannot parse \'\' as int: strconv.ParseInt: parsing "x": invalid syntax'],
      [{ meta: ['nokv'] }, 'Field validation failed: error converting input for field "meta": invalid key pair "nokv"'],
    ]
    for (const [body, message] of refusals) {
      expect(await call(world, 'create', body), JSON.stringify(body)).toEqual({ status: 400, body: errors(message) })
    }
    expect(tokenStore(world.doppel).tokens.size).toBe(0)
    expect(world.doppel.journal.entries().at(-1)!.explanation).toMatchObject({ rule: 'field meta' })
  })

  it('creates with a custom id, warning of its weaker hashing; the id serves and cannot be taken twice', async () => {
    const world = loginWorld()
    const reply = await call(world, 'create', { id: 'custom-1', policies: ['a'] })
    expect(reply.body.auth.client_token).toBe('custom-1')
    expect(reply.body.warnings[0]).toMatch(/^Supplying a custom ID for the token uses the weaker SHA1 hashing/)
    expect((await call(world, 'lookup-self', undefined, 'custom-1', 'GET')).body.data.id).toBe('custom-1')
    expect(await call(world, 'create', { id: 'custom-1' })).toEqual({ status: 400, body: errors('cannot create a token with a duplicate ID') })
  })

  it('answers create/<role> with unknown role for a role that does not exist, a name no role can have with the 404; other operations 405', async () => {
    const world = loginWorld()
    expect(await call(world, 'create/my.role-1_x', {})).toEqual({ status: 400, body: errors('unknown role my.role-1_x') })
    expect(await call(world, 'create/-x', {})).toEqual({ status: 404, body: errors(multi('unsupported path')) })
    expect(await call(world, 'create/a/b', {})).toEqual({ status: 404, body: errors(multi('unsupported path')) })
    expect((await call(world, 'create/x', { num_uses: 'x' })).body.errors[0]).toMatch(/^Field validation failed/)
    for (const path of ['create', 'create-orphan', 'create/x']) {
      expect(await call(world, path, undefined, 'root', 'GET')).toEqual({ status: 405, body: errors(multi('unsupported operation')) })
    }
    expect(await call(world, 'create', undefined, 'root', 'DELETE')).toEqual({ status: 405, body: errors(multi('unsupported operation')) })
    expect(await call(world, 'create/', {})).toEqual({ status: 400, body: errors("cannot write to a path ending in '/'") })
  })
})

describe('what a created token may do', () => {
  it('a token without the root policy has the default policy only: its own lookup (a read), renewal and revocation', async () => {
    const world = loginWorld()
    const a = await create(world, { policies: ['a'] })
    const denied = { status: 403, body: errors(multi('permission denied')) }
    expect(await call(world, 'create', { policies: ['a'] }, a.client_token)).toEqual(denied)
    expect(await call(world, 'lookup-self', {}, a.client_token)).toEqual(denied)
    expect(await call(world, 'renew-self', undefined, a.client_token, 'GET')).toEqual(denied)
    expect(await call(world, 'lookup-self', undefined, a.client_token, 'LIST')).toEqual(denied)
    expect((await call(world, 'lookup-self', undefined, a.client_token, 'GET')).body.data).toMatchObject({ policies: ['a', 'default'], orphan: false })
    expect(world.doppel.journal.entries().at(-2)!.explanation).toMatchObject({ rule: 'default policy' })
    const config = await world.doppel.fetch(`${BASE}/v1/auth/cloud/config/client`, { headers: { 'X-Service-Token': a.client_token } })
    expect(config.status).toBe(403)
    expect(world.doppel.journal.entries().at(-1)!.explanation!.seen).toContain('a token created without the root policy')
    expect((await call(world, 'renew-self', { increment: '10m' }, a.client_token)).body.auth).toMatchObject({ lease_duration: 600, orphan: false })
    expect(await call(world, 'revoke-self', {}, a.client_token)).toEqual({ status: 204, body: null })
    expect((await lookup(world, a.client_token)).status).toBe(403)
  })

  it('a root child manages as a root token does, each use counted; a limited one cannot create, and its last use leaves no parent', async () => {
    const world = loginWorld()
    const child = await create(world)
    const headers = { 'X-Service-Token': child.client_token, 'Content-Type': 'application/json' }
    const mount = await world.doppel.fetch(`${BASE}/v1/sys/auth/by-child`, { method: 'POST', headers, body: JSON.stringify({ type: 'aws' }) })
    expect(mount.status).toBe(204)
    const grandchild = await create(world, { policies: ['b'] }, child.client_token)
    expect(grandchild.orphan).toBe(false)

    const limited = await create(world, { num_uses: 3 })
    expect(await call(world, 'create', { policies: ['x'] }, limited.client_token)).toEqual({ status: 400, body: errors('restricted use token cannot generate child tokens') })
    expect((await lookup(world, limited.client_token)).body.data.num_uses).toBe(2)
    const once = await create(world, { num_uses: 1 })
    expect(await call(world, 'create', { policies: ['x'] }, once.client_token)).toEqual({ status: 400, body: errors('parent token lookup failed: no parent found') })
    expect((await lookup(world, once.client_token)).status).toBe(403)
  })

  it('an expiring root token cannot create one without expiry, but can create expiring ones', async () => {
    const world = loginWorld()
    const expiring = await create(world, { ttl: '1h' })
    expect(expiring).toMatchObject({ policies: ['root'], lease_duration: 3600, renewable: true })
    expect(await call(world, 'create', {}, expiring.client_token)).toEqual({ status: 400, body: errors('expiring root tokens cannot create non-expiring root tokens') })
    expect((await create(world, { policies: ['x'] }, expiring.client_token)).lease_duration).toBe(2764800)
  })
})

describe('how created tokens renew', () => {
  it("by the token store's own arithmetic: the last grant again, an increment, the period, capped by the explicit max from creation", async () => {
    const world = loginWorld()
    const a = await create(world, { policies: ['a'] })
    world.doppel.clock.advance('1m')
    expect((await call(world, 'renew-self', {}, a.client_token)).body.auth.lease_duration).toBe(2764800 - 60)
    expect((await call(world, 'renew-self', { increment: '10m' }, a.client_token)).body.auth.lease_duration).toBe(600)
    expect((await call(world, 'renew-accessor', { accessor: a.accessor })).body.auth).toMatchObject({ lease_duration: 600, client_token: '' })

    const capped = await create(world, { policies: ['a'], ttl: '1h', explicit_max_ttl: '2h' })
    world.doppel.clock.advance('30m')
    expect((await call(world, 'renew', { token: capped.client_token, increment: '5h' })).body).toMatchObject({
      auth: { lease_duration: 5400 },
      warnings: ['TTL of "5h" exceeded the effective max_ttl of "1h30m"; TTL value is capped accordingly'],
    })
    world.doppel.clock.advance('90m')
    expect(await call(world, 'renew', { token: capped.client_token })).toEqual({ status: 400, body: errors('token not found') })

    const periodic = await create(world, { policies: ['a'], period: '1h' })
    expect((await call(world, 'renew', { token: periodic.client_token, increment: '5h' })).body.auth.lease_duration).toBe(3600)
    const fixed = await create(world, { policies: ['a'], renewable: false })
    expect(await call(world, 'renew', { token: fixed.client_token })).toEqual({ status: 400, body: errors('lease is not renewable') })
  })
})

describe('how created tokens go', () => {
  it('revoking a token revokes the tokens it created, theirs too; revoke-orphan leaves them as orphans', async () => {
    const world = loginWorld()
    const parent = await create(world)
    const child = await create(world, {}, parent.client_token)
    const grandchild = await create(world, { policies: ['g'] }, child.client_token)
    const orphan = await create(world, { policies: ['o'] }, parent.client_token, 'create-orphan')
    expect(await call(world, 'revoke', { token: parent.client_token })).toEqual({ status: 204, body: null })
    for (const gone of [parent, child, grandchild]) expect((await lookup(world, gone.client_token)).status).toBe(403)
    expect((await lookup(world, orphan.client_token)).status).toBe(200)
    expect(await call(world, 'lookup-self', undefined, grandchild.client_token, 'GET')).toEqual({ status: 403, body: errors('permission denied') })
    expect(world.doppel.journal.entries().at(-1)!.explanation!.seen).toContain('revoked with its parent')

    const other = await create(world)
    const left = await create(world, { policies: ['l'] }, other.client_token)
    expect(await call(world, 'revoke-orphan', { token: other.client_token })).toEqual({ status: 204, body: null })
    expect((await lookup(world, left.client_token)).body.data.orphan).toBe(true)
    expect((await call(world, 'renew-self', {}, left.client_token)).body.auth.orphan).toBe(true)
  })

  it('a parent that expires takes its children with it; revoke-self and revoke-accessor revoke the tree too', async () => {
    const world = loginWorld()
    const parent = await create(world, { ttl: '10m' })
    const child = await create(world, { policies: ['c'], ttl: '1h' }, parent.client_token)
    world.doppel.clock.advance('11m')
    expect((await lookup(world, child.client_token)).status).toBe(403)

    const bySelf = await create(world)
    const underSelf = await create(world, { policies: ['c'] }, bySelf.client_token)
    expect((await call(world, 'revoke-self', {}, bySelf.client_token)).status).toBe(204)
    expect((await lookup(world, underSelf.client_token)).status).toBe(403)

    const byAccessor = await create(world)
    const underAccessor = await create(world, { policies: ['c'] }, byAccessor.client_token)
    expect((await call(world, 'revoke-accessor', { accessor: byAccessor.accessor })).status).toBe(204)
    expect((await lookup(world, underAccessor.client_token)).status).toBe(403)
  })

  it('the configured root token is not revoked, nor are the tokens it created', async () => {
    const world = loginWorld()
    const child = await create(world, { policies: ['a'] })
    expect((await call(world, 'revoke', { token: 'root' })).status).toBe(204)
    expect((await lookup(world, child.client_token)).status).toBe(200)
  })

  it('a snapshot keeps who created whom: a restored parent still takes its children with it', async () => {
    const world = loginWorld()
    const parent = await create(world)
    const child = await create(world, { policies: ['c'], meta: {} }, parent.client_token)
    await call(world, 'roles/kept', { allowed_policies: 'a', token_period: '1h' })
    const clone = createDoppel({ seed: 1, clock: { start: world.doppel.clock.nowMs(), frozen: true } })
    clone.restore(JSON.parse(JSON.stringify(world.doppel.snapshot())))
    const onClone = async (path: string, body: unknown) => {
      const response = await clone.fetch(`${BASE}/v1/auth/token/${path}`, { method: 'POST', headers: { 'X-Service-Token': 'root' }, body: JSON.stringify(body) })
      return { status: response.status, body: await response.text() }
    }
    const before = await onClone('lookup', { token: child.client_token })
    expect(JSON.parse(before.body).data).toMatchObject({ orphan: false, meta: {} })
    expect((await onClone('revoke', { token: parent.client_token })).status).toBe(204)
    expect((await onClone('lookup', { token: child.client_token })).status).toBe(403)
    const fromRole = JSON.parse((await onClone('create/kept', {})).body)
    expect(fromRole.auth).toMatchObject({ policies: ['a', 'default'], lease_duration: 3600 })
  })
})

describe('token roles', () => {
  it('are written with defaults, read back as the real store shows them, listed, deleted; refusals in its words', async () => {
    const world = loginWorld()
    expect(await call(world, 'roles', undefined, 'root', 'LIST')).toEqual({ status: 404, body: errors() })
    expect(await call(world, 'roles/r1', undefined, 'root', 'GET')).toEqual({ status: 404, body: errors() })
    expect(await call(world, 'roles/r1', { x: 1 })).toEqual({ status: 204, body: null })
    expect((await call(world, 'roles/r1', undefined, 'root', 'GET')).body.data).toEqual({
      allowed_entity_aliases: null,
      allowed_policies: [],
      allowed_policies_glob: [],
      disallowed_policies: [],
      disallowed_policies_glob: [],
      explicit_max_ttl: 0,
      name: 'r1',
      orphan: false,
      path_suffix: '',
      period: 0,
      renewable: true,
      token_explicit_max_ttl: 0,
      token_no_default_policy: false,
      token_period: 0,
      token_type: 'default-service',
    })
    const written = await call(world, 'roles/r2', { allowed_policies: 'A,b, ,c', disallowed_policies: 'X,y', token_period: '30m', period: '1h', token_bound_cidrs: '10.1.0.0/16', bound_cidrs: '10.2.0.0/16', token_num_uses: 2, x: 1 })
    expect(written.body.warnings).toEqual([
      "Both 'token_period' and deprecated 'period' value supplied, ignoring the deprecated value",
      "Both 'token_bound_cidrs' and deprecated 'bound_cidrs' value supplied, ignoring the deprecated value",
      'Endpoint ignored these unrecognized parameters: [x]',
    ])
    expect((await call(world, 'roles/r2', undefined, 'root', 'GET')).body.data).toMatchObject({ allowed_policies: ['a', 'b', 'c'], disallowed_policies: ['x', 'y'], token_period: 1800, period: 0, token_bound_cidrs: ['10.1.0.0/16'], token_num_uses: 2 })
    expect((await call(world, 'roles', undefined, 'root', 'LIST')).body.data.keys).toEqual(['r1', 'r2'])
    const refusals: [string, Record<string, unknown>, string][] = [
      ['r3', { token_type: 'batch' }, "'token_type' cannot be 'batch' when role is set to generate non-orphan tokens"],
      ['r3', { token_type: 'batch', orphan: true }, "'token_type' cannot be 'batch' when role is set to generate renewable tokens"],
      ['r4', { token_type: 'default' }, 'invalid \'token_type\' value "default"'],
      ['r4', { token_type: null }, "Invalid 'token_type' value: null"],
      ['r5', { path_suffix: 'v1' }, 'given role path suffix contains invalid characters; must match \\w[\\w-.]+\\w'],
      ['r5', { path_suffix: 'a..b' }, 'error registering path suffix: path cannot contain parent references'],
      ['r6', { token_num_uses: -1 }, "error parsing role fields: 'token_num_uses' cannot be negative"],
      ['r6', { token_ttl: '2h', token_max_ttl: '1h' }, "error parsing role fields: 'token_ttl' cannot be greater than 'token_max_ttl'"],
      ['r6', { bound_cidrs: 'nope' }, 'error parsing bound_cidrs: error parsing address "nope": Unable to convert "nope" to an IPv4 or IPv6 address, or a UNIX Socket'],
    ]
    for (const [name, body, message] of refusals) expect(await call(world, `roles/${name}`, body), JSON.stringify(body)).toEqual({ status: 400, body: errors(message) })
    expect((await call(world, 'roles/r7', { explicit_max_ttl: '1000h' })).body.warnings).toEqual([
      'Given explicit max TTL of 3600000 is greater than system/mount allowed value of 2764800 seconds; until this is fixed attempting to create tokens against this role will result in an error',
    ])
    expect(await call(world, 'roles/-bad', {})).toEqual({ status: 404, body: errors(multi('unsupported path')) })
    expect(await call(world, 'roles/r1', undefined, 'root', 'DELETE')).toEqual({ status: 204, body: null })
    expect(await call(world, 'roles/nope', undefined, 'root', 'DELETE')).toEqual({ status: 204, body: null })
    expect((await call(world, 'roles?list=true', undefined, 'root', 'GET')).body.data.keys).toEqual(['r2', 'r7'])
  })

  it('bound what is created against them: policies by name and glob, entity aliases, type, orphans, uses, path, period and explicit max', async () => {
    const world = loginWorld()
    await call(world, 'roles/g1', { allowed_policies: 'A,b', disallowed_policies: 'x', allowed_policies_glob: 'g*', disallowed_policies_glob: 'bad*', orphan: true, path_suffix: 'v1x', renewable: false, allowed_entity_aliases: 'Al1,ent-*', token_num_uses: 3 })
    const first = await create(world, {}, 'root', 'create/g1')
    expect(first).toMatchObject({ policies: ['a', 'b', 'default'], orphan: true, renewable: false, num_uses: 3 })
    expect((await lookup(world, first.client_token)).body.data).toMatchObject({ path: 'auth/token/create/g1/v1x', role: 'g1' })
    expect((await create(world, { policies: ['a', 'gx'] }, 'root', 'create/g1')).policies).toEqual(['a', 'default', 'gx'])
    expect(await call(world, 'create/g1', { policies: ['a', 'zz'] })).toEqual({
      status: 400,
      body: errors('token policies (["a" "default" "zz"]) must be subset of the role\'s allowed policies (["a" "b" "default"]) or glob policies (["g*"])'),
    })
    expect(await call(world, 'create/g1', { policies: ['x'] })).toMatchObject({ status: 400 })
    const aliased = await create(world, { entity_alias: 'AL1' }, 'root', 'create/g1')
    expect(aliased.entity_id).toMatch(/^[0-9a-f-]{36}$/)
    expect((await create(world, { entity_alias: 'AL1' }, 'root', 'create/g1')).entity_id).toBe(aliased.entity_id)
    expect((await create(world, { entity_alias: 'ent-Foo' }, 'root', 'create/g1')).entity_id).not.toBe(aliased.entity_id)
    expect(await call(world, 'create/g1', { entity_alias: 'nope' })).toEqual({ status: 400, body: errors("invalid 'entity_alias' value") })
    expect((await create(world, { num_uses: 1 }, 'root', 'create/g1')).num_uses).toBe(1)

    await call(world, 'roles/d1', { disallowed_policies_glob: 'def*' })
    expect((await create(world, { policies: ['a'] }, 'root', 'create/d1')).policies).toEqual(['a'])
    await call(world, 'roles/b1', { token_type: 'default-batch', orphan: true, renewable: false })
    expect((await create(world, { policies: ['a'] }, 'root', 'create/b1')).token_type).toBe('batch')
    expect((await create(world, { policies: ['a'], type: 'service' }, 'root', 'create/b1')).token_type).toBe('service')

    await call(world, 'roles/p1', { token_period: '30m', token_explicit_max_ttl: '1h', token_bound_cidrs: '127.0.0.1' })
    expect((await call(world, 'create/p1', { policies: ['a'], period: '2h', explicit_max_ttl: '20m' })).body).toMatchObject({
      auth: { lease_duration: 1200 },
      warnings: [
        'Explicit max TTL specified both during creation call and in role; using the lesser value of 1200 seconds',
        'Period specified both during creation call and in role; using the lesser value of 1800 seconds',
        'period of "30m" exceeded the effective max_ttl of "20m"; period value is capped accordingly',
        'Policy "a" does not exist',
      ],
    })
    const periodic = await create(world, { policies: ['a'] }, 'root', 'create/p1')
    expect((await lookup(world, periodic.client_token)).body.data).toMatchObject({ bound_cidrs: ['127.0.0.1'], explicit_max_ttl: 0, role: 'p1' })
  })

  it("renew their tokens by the role as it stands; a deleted role's tokens no longer renew", async () => {
    const world = loginWorld()
    await call(world, 'roles/p1', { token_period: '10m', token_explicit_max_ttl: '1h' })
    const token = await create(world, { policies: ['a'] }, 'root', 'create/p1')
    expect((await call(world, 'renew', { token: token.client_token, increment: '5h' })).body.auth.lease_duration).toBe(600)
    await call(world, 'roles/p1', { token_period: '20m' })
    expect((await call(world, 'renew', { token: token.client_token })).body.auth.lease_duration).toBe(1200)
    for (const lease of [1200, 1200, 900]) {
      // the role's explicit max holds from creation: 15 minutes are left at the last
      world.doppel.clock.advance('15m')
      expect((await call(world, 'renew', { token: token.client_token })).body.auth.lease_duration).toBe(lease)
    }
    await call(world, 'roles/p1', undefined, 'root', 'DELETE')
    const refused = await call(world, 'renew', { token: token.client_token })
    expect(refused.status).toBe(400)
    expect(refused.body.errors[0]).toContain('failed to renew entry: original token role "p1" could not be found, not renewing')
    const vault = loginWorld({ profile: 'vault' })
    await vault.doppel.fetch(`${BASE}/v1/auth/token/roles/p1`, { method: 'POST', headers: { 'X-Vault-Token': 'root' }, body: '{}' })
    const created = await vault.doppel.fetch(`${BASE}/v1/auth/token/create/p1`, { method: 'POST', headers: { 'X-Vault-Token': 'root' }, body: '{"policies":["a"]}' })
    const vaultToken = ((await created.json()) as { auth: Created }).auth.client_token
    await vault.doppel.fetch(`${BASE}/v1/auth/token/roles/p1`, { method: 'DELETE', headers: { 'X-Vault-Token': 'root' } })
    const renewed = await vault.doppel.fetch(`${BASE}/v1/auth/token/renew`, { method: 'POST', headers: { 'X-Vault-Token': 'root' }, body: JSON.stringify({ token: vaultToken }) })
    expect({ status: renewed.status, body: await renewed.json() }).toEqual({
      status: 500,
      body: errors(multi('failed to renew entry: original token role "p1" could not be found, not renewing')),
    })
  })
})

describe('secrets', () => {
  it("the journal and the state never show a token's id, a custom one or a parent's, and lookups' ids are hidden too", async () => {
    const world = loginWorld()
    const parent = await create(world, { id: 'my-own-secret-id' })
    await create(world, { policies: ['c'] }, 'my-own-secret-id')
    await call(world, 'lookup', { token: 'my-own-secret-id' })
    await call(world, 'lookup-self', undefined, 'my-own-secret-id', 'GET')
    await world.doppel.fetch(`${BASE}/v1/auth/token/create`, { method: 'POST', headers: { 'X-Service-Token': 'root' }, body: `{"id":"my-other-secret-id","pad":"${'x'.repeat(300_000)}"}` })
    // The journal is redacted for every reader; the state for a caller without the management token.
    for (const [path, headers] of [['/_doppel/journal', {}], ['/_doppel/journal', { 'X-Service-Token': 'root' }], ['/_doppel/state', {}]] as [string, Record<string, string>][]) {
      const text = await (await world.doppel.fetch(`${BASE}${path}`, { headers })).text()
      expect(text, path).not.toContain('my-own-secret-id')
      expect(text, path).not.toContain('my-other-secret-id')
      expect(text, path).not.toContain(parent.accessor)
    }
  })
})

describe('bad input', () => {
  it('any body gets 200 or a 4xx with the errors body, and a refused one creates nothing', async () => {
    const world = loginWorld()
    const value = fc.oneof(fc.string(), fc.integer({ min: -5, max: 5 }), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }), fc.constantFrom(...PROTOTYPE_NAMES))
    const fields = ['policies', 'ttl', 'explicit_max_ttl', 'period', 'num_uses', 'type', 'meta', 'id', 'display_name', 'renewable', 'no_parent', 'no_default_policy', 'entity_alias', 'lease']
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 5 }), async (body) => {
        const count = tokenStore(world.doppel).tokens.size
        const reply = await call(world, 'create', body)
        if (reply.status === 200) expect(tokenStore(world.doppel).tokens.size).toBe(count + 1)
        else {
          expect(reply.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400)
          expect(reply.status).toBeLessThan(500)
          expect(reply.body.errors).toHaveLength(1)
          expect(tokenStore(world.doppel).tokens.size).toBe(count)
        }
      }),
      { numRuns: 300 },
    )
  })
})

describe('bad input to a token role', () => {
  it('any body gets 204, 200 or a 4xx with the errors body, and a refused one leaves the role as it was', async () => {
    const world = loginWorld()
    await call(world, 'roles/r', { allowed_policies: 'a', orphan: true })
    const value = fc.oneof(fc.string(), fc.integer({ min: -5, max: 5 }), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.constantFrom('batch', 'default-batch', '1h', 'g*', 'v1x', ...PROTOTYPE_NAMES))
    const fields = ['allowed_policies', 'disallowed_policies_glob', 'orphan', 'renewable', 'period', 'token_period', 'explicit_max_ttl', 'path_suffix', 'token_type', 'bound_cidrs', 'token_bound_cidrs', 'token_num_uses', 'allowed_entity_aliases', 'token_ttl', 'token_max_ttl']
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 5 }), async (body) => {
        const before = await call(world, 'roles/r', undefined, 'root', 'GET')
        const reply = await call(world, 'roles/r', body)
        expect(reply.status, JSON.stringify(body)).toBeLessThan(500)
        if (reply.status >= 400) {
          expect(reply.body.errors).toHaveLength(1)
          expect((await call(world, 'roles/r', undefined, 'root', 'GET')).body.data).toEqual(before.body.data)
        }
      }),
      // Seed -141666819 once made renewable "valueOf" a function, which the next write could not clone (a 500).
      { numRuns: 300 },
    )
  })
})

describe("the names of an object's prototype", () => {
  it('are no values of a bool, a duration unit or a token type, anywhere: each is refused as any other unknown text', async () => {
    const world = loginWorld()
    const refused = async (path: string, body: unknown) => {
      const response = await world.doppel.fetch(`${BASE}/v1/${path}`, { method: 'POST', headers: { 'X-Service-Token': 'root' }, body: JSON.stringify(body) })
      return response.status
    }
    for (const name of PROTOTYPE_NAMES) {
      expect(await refused('auth/token/roles/r', { renewable: name }), name).toBe(400)
      expect(await refused('auth/token/roles/r', { token_type: name }), name).toBe(400)
      expect(await refused('auth/token/create', { type: name }), name).toBe(400)
      expect(await refused('auth/token/create', { ttl: `1${name}` }), name).toBe(400)
      expect(await refused('auth/cloud/role/r', { auth_type: 'ec2', token_ttl: `1${name}` }), name).toBe(400)
      expect(await refused('sys/auth/cloud/tune', { token_type: name }), name).toBe(400)
      expect(await refused('sys/auth/other', { type: 'aws', config: { token_type: name } }), name).toBe(400)
    }
    expect((await call(world, 'roles?list=true', undefined, 'root', 'GET')).status).toBe(404)
  })
})

describe('disabling a mount', () => {
  it('revokes every token its logins issued but batch tokens, which have no lease; a token the store created stays', async () => {
    const world = loginWorld()
    const instance = world.cloud.createInstance({})
    await createEc2Role(world, 'web', instance, { token_policies: 'dev' })
    await createEc2Role(world, 'batch', instance, { token_policies: 'dev', token_type: 'batch' })
    const login = await world.login({ role: 'web', pkcs7: world.cloud.identityDocument(instance.instance_id, 'rsa2048'), nonce: 'n-1' })
    // Another instance of the same image: the first one's access-list entry holds its nonce.
    const other = world.cloud.createInstance({ ami_id: instance.ami_id })
    const batch = await world.login({ role: 'batch', pkcs7: world.cloud.identityDocument(other.instance_id, 'rsa2048'), nonce: 'n-2' })
    expect(batch.body.auth.token_type).toBe('batch')
    const token = login.body.auth.client_token
    const kept = await create(world, { policies: ['dev'] })
    expect((await world.doppel.fetch(`${BASE}/v1/sys/auth/cloud`, { method: 'DELETE', headers: { 'X-Service-Token': 'root' } })).status).toBe(204)
    expect(await call(world, 'lookup-self', undefined, token, 'GET')).toEqual({ status: 403, body: errors('permission denied') })
    expect(world.doppel.journal.entries().at(-1)!.explanation!.seen).toContain('revoked with its mount')
    expect((await lookup(world, token)).status).toBe(403)
    expect((await lookup(world, kept.client_token)).status).toBe(200)
    expect((await lookup(world, batch.body.auth.client_token)).status).toBe(200)
  })
})

describe('revoke-prefix', () => {
  const revoke = async (world: LoginWorld, path: string, body: unknown = {}, token = 'root') => {
    const response = await world.doppel.fetch(`${BASE}/v1/sys/leases/${path}`, { method: 'POST', headers: { 'X-Service-Token': token }, body: JSON.stringify(body) })
    return { status: response.status, text: await response.text() }
  }

  it("revokes the tokens whose path is under the prefix, by whole segments, with their children; batch tokens have no lease", async () => {
    const world = loginWorld()
    const instance = world.cloud.createInstance({})
    await createEc2Role(world, 'web', instance, { token_policies: 'dev' })
    const login = (await world.login({ role: 'web', pkcs7: world.cloud.identityDocument(instance.instance_id, 'rsa2048'), nonce: 'n-1' })).body.auth.client_token
    await call(world, 'roles/ra', {})
    await call(world, 'roles/ra2', {})
    const parent = await create(world, { policies: ['root'] }, 'root', 'create/ra')
    const child = await create(world, { policies: ['dev'] }, parent.client_token)
    const batch = await create(world, { type: 'batch', policies: ['dev'] }, 'root', 'create/ra')
    const other = await create(world, { policies: ['dev'] }, 'root', 'create/ra2')
    expect(await revoke(world, 'revoke-prefix/auth/token/create/ra')).toEqual({ status: 204, text: '' })
    for (const gone of [parent.client_token, child.client_token]) expect((await lookup(world, gone)).status).toBe(403)
    for (const kept of [batch.client_token, other.client_token, login]) expect((await lookup(world, kept)).status).toBe(200)
    expect(await revoke(world, 'revoke-prefix/auth/clo', { sync: false })).toEqual({ status: 202, text: '' })
    expect((await lookup(world, login)).status).toBe(200)
    expect(await revoke(world, 'revoke-force/auth/cloud', { sync: false })).toEqual({ status: 204, text: '' })
    expect((await lookup(world, login)).status).toBe(403)
    expect((await lookup(world, other.client_token)).status).toBe(200)
  })

  it('is for a root token only; other operations are 405; a sync that is no bool is refused', async () => {
    const world = loginWorld()
    const user = await create(world, { policies: ['dev'] })
    expect((await revoke(world, 'revoke-prefix/auth/token/create', {}, user.client_token)).status).toBe(403)
    expect((await lookup(world, user.client_token)).status).toBe(200)
    const read = await world.doppel.fetch(`${BASE}/v1/sys/leases/revoke-prefix/auth/token/create`, { headers: { 'X-Service-Token': 'root' } })
    expect({ status: read.status, body: await read.json() }).toEqual({ status: 405, body: errors(multi('unsupported operation')) })
    expect((await revoke(world, 'revoke-prefix/auth/token/create', { sync: 'x' })).status).toBe(400)
    expect((await lookup(world, user.client_token)).status).toBe(200)
  })
})

describe('a login token and a created one side by side', () => {
  it("a login's token stays an orphan with its method's renewal; the store's lookups tell them apart by path", async () => {
    const world = loginWorld()
    const instance = world.cloud.createInstance({})
    await createEc2Role(world, 'web', instance, { policies: 'dev', token_ttl: '1h' })
    const login = await world.login({ role: 'web', pkcs7: world.cloud.identityDocument(instance.instance_id, 'rsa2048'), nonce: 'n-1' })
    const created = await create(world, { policies: ['dev'] })
    expect((await lookup(world, login.body.auth.client_token)).body.data).toMatchObject({ orphan: true, path: 'auth/cloud/login' })
    expect((await lookup(world, created.client_token)).body.data).toMatchObject({ orphan: false, path: 'auth/token/create' })
    expect((await call(world, 'renew-self', {}, login.body.auth.client_token)).body.auth.lease_duration).toBe(3600)
  })
})
