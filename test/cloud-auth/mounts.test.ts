import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { errors, managementClient } from './management-client.ts'

const ROLE = { auth_type: 'ec2', bound_ami_id: 'ami-1' }

describe('mounts: sys/auth and per-mount state', () => {
  it('enables another mount of the method, isolated from the default one', async () => {
    const api = managementClient()
    expect((await api.write('/v1/sys/auth/team/aws', { type: 'aws' })).status).toBe(204)
    await api.write('role/shared-name', ROLE, { mount: 'team/aws' })
    expect((await api.read('role/shared-name', { mount: 'team/aws' })).status).toBe(200)
    expect((await api.read('role/shared-name', { mount: 'cloud' })).status).toBe(404)
    await api.write('config/identity', { iam_alias: 'full_arn' })
    expect((await api.read('config/identity', { mount: 'team/aws' })).body.data.iam_alias).toBe('role_id')
  })

  it('lists the mounts under data and at the top level, as the real service does', async () => {
    const api = managementClient()
    await api.call('PUT', '/v1/sys/auth/second', { body: { type: 'aws', description: 'for tests' } })
    const answer = await api.read('/v1/sys/auth')
    expect(answer.status).toBe(200)
    expect(Object.keys(answer.body.data).sort()).toEqual(['cloud/', 'second/', 'token/'])
    expect(answer.body.data['second/']).toMatchObject({ type: 'aws', description: 'for tests', local: false })
    expect(answer.body.data['second/'].accessor).toMatch(/^auth_aws_[0-9a-f]{8}$/)
    expect(answer.body['cloud/']).toEqual(answer.body.data['cloud/'])
    expect(answer.body.data['token/'].type).toBe('token')
    expect(answer.body.mount_type).toBe('system')
  })

  it('refuses a path in use, a nested or enclosing path, and other types', async () => {
    const api = managementClient()
    expect((await api.write('/v1/sys/auth/cloud', { type: 'aws' })).body).toEqual(errors('path is already in use at cloud/'))
    // A write to a path ending in "/" is refused before any handler (docs/reference/cloud-auth.md §1.4).
    expect((await api.write('/v1/sys/auth/fresh/', { type: 'aws' })).body).toEqual(errors("cannot write to a path ending in '/'"))
    expect((await api.read('/v1/sys/auth/fresh')).status).toBe(400)
    expect((await api.write('/v1/sys/auth/cloud/inner', { type: 'aws' })).body).toEqual(errors('path is already in use at cloud/'))
    expect((await api.write('/v1/sys/auth/token', { type: 'aws' })).body).toEqual(errors('path is already in use at token/'))
    await api.write('/v1/sys/auth/a/b', { type: 'aws' })
    expect((await api.write('/v1/sys/auth/a', { type: 'aws' })).body).toEqual(errors('path is already in use at a/b/'))
    expect((await api.write('/v1/sys/auth/other', { type: 'userpass' })).body).toEqual(
      errors('plugin not found in the catalog: userpass'),
    )
    expect((await api.read('/v1/auth/other/roles?list=true')).status).toBe(404)
    // No type, or type plugin without its name, as the real service words them (seen on the real server).
    for (const body of [{}, { type: '' }]) {
      const answer = await api.write('/v1/sys/auth/other', body)
      expect([answer.status, answer.body]).toEqual([400, errors('backend type must be specified as a string')])
    }
    expect((await api.write('/v1/sys/auth/other', { type: 'plugin' })).body).toEqual(errors('plugin_name must be provided for plugin backend'))
    expect((await api.write('/v1/sys/auth/other', { type: 'plugin', plugin_name: 'aws' })).status).toBe(204)
  })

  it("reads a mount's tuning as the real service does for a mount no one tuned", async () => {
    const api = managementClient()
    await api.write('/v1/sys/auth/second', { type: 'aws', description: 'for tests' })
    const tune = await api.read('/v1/sys/auth/second/tune')
    expect(tune.status).toBe(200)
    expect(tune.body.data).toEqual({ default_lease_ttl: 2764800, description: 'for tests', force_no_cache: false, max_lease_ttl: 2764800, token_type: 'default-service' })
    expect(tune.body.max_lease_ttl).toBe(2764800)
    expect((await api.read('/v1/sys/auth/token/tune')).body.data.description).toBe('token based credentials')
    const missing = await api.read('/v1/sys/auth/nope/tune')
    expect([missing.status, missing.body]).toEqual([400, errors('cannot fetch sysview for path "auth/nope/"')])
    // A tuning write makes no mount named after it.
    expect((await api.write('/v1/sys/auth/second/tune', { max_lease_ttl: '1h' })).status).toBe(204)
    expect(Object.keys((await api.read('/v1/sys/auth')).body.data).sort()).toEqual(['cloud/', 'second/', 'token/'])
  })

  it("tunes a mount's lease TTLs and description, which its list entry, its logins' cap and a snapshot keep", async () => {
    const api = managementClient()
    expect((await api.write('/v1/sys/auth/cloud/x/tune', { default_lease_ttl: 1800, max_lease_ttl: '1h', description: 'tuned' })).status).toBe(204)
    expect((await api.read('/v1/sys/auth/cloud/tune')).body.data).toMatchObject({ default_lease_ttl: 1800, max_lease_ttl: 3600, description: 'tuned' })
    expect((await api.read('/v1/sys/auth/cloud')).body.data).toMatchObject({ description: 'tuned', config: { default_lease_ttl: 1800, max_lease_ttl: 3600 } })
    // "" keeps a value, "system" clears it
    expect((await api.write('/v1/sys/auth/cloud/tune', { default_lease_ttl: '', max_lease_ttl: 'system' })).status).toBe(204)
    expect((await api.read('/v1/sys/auth/cloud')).body.data.config).toMatchObject({ default_lease_ttl: 1800, max_lease_ttl: 0 })
    expect((await api.read('/v1/sys/auth/cloud/tune')).body.data.max_lease_ttl).toBe(2764800)
    expect((await api.write('role/r', { ...ROLE, token_max_ttl: '800h' })).body.warnings).toEqual([
      'Given max ttl of 2880000 seconds greater than current mount/system default of 2764800 seconds; max ttl will be capped at login time',
    ])

    const copy = managementClient()
    expect((await api.write('/v1/sys/auth/cloud/tune', { token_type: 'default-batch', listing_visibility: 'hidden', passthrough_request_headers: 'X-A, X-B' })).status).toBe(204)
    copy.doppel.restore(api.doppel.snapshot())
    expect((await copy.read('/v1/sys/auth/cloud/tune')).body.data).toMatchObject({
      default_lease_ttl: 1800,
      description: 'tuned',
      token_type: 'default-batch',
      listing_visibility: 'hidden',
      passthrough_request_headers: ['X-A', 'X-B'],
    })
  })

  it('keeps every tuning it accepted through a snapshot, whatever the durations; refuses the rest with a 400', async () => {
    const digits = fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map(String)
    const duration = fc.oneof(
      digits,
      digits.map((n) => `${n}d`),
      fc.tuple(digits, fc.constantFrom('h', 'm', 's', 'ms', 'us', 'ns', 'h30m')).map(([n, unit]) => `${n}${unit}`),
      fc.constantFrom('', 'system', '1.5h', '-0', '+5m', 'x'),
      fc.string({ maxLength: 12 }),
    )
    await fc.assert(
      fc.asyncProperty(duration, duration, async (defaultTtl, maxTtl) => {
        const api = managementClient()
        const answer = await api.write('/v1/sys/auth/cloud/tune', { default_lease_ttl: defaultTtl, max_lease_ttl: maxTtl })
        expect([204, 400]).toContain(answer.status)
        const tuned = (await api.read('/v1/sys/auth/cloud/tune')).body.data
        const copy = managementClient()
        copy.doppel.restore(api.doppel.snapshot())
        expect((await copy.read('/v1/sys/auth/cloud/tune')).body.data).toEqual(tuned)
      }),
      // A seed that failed: a duration past a Go time.Duration was taken, and the snapshot then refused it.
      { numRuns: 300, examples: [['-104249991375d', '0d'], ['99999999999999d', '']] },
    )
  })

  it("tunes the token mount, and refuses what the real service refuses, changing nothing", async () => {
    const api = managementClient()
    expect((await api.write('/v1/sys/auth/token/tune', { max_lease_ttl: '5h', description: 'mine' })).status).toBe(204)
    expect((await api.read('/v1/sys/auth/token')).body.data).toMatchObject({ description: 'mine', config: { max_lease_ttl: 18000 } })
    const state = () => JSON.stringify((api.doppel.snapshot() as { domains: unknown }).domains)
    const before = state()
    const refusals: [unknown, string][] = [
      [{ default_lease_ttl: '2h', max_lease_ttl: '1h' }, 'backend max lease TTL of 3600 would be less than backend default lease TTL of 7200'],
      [{ default_lease_ttl: 'abc' }, 'time: invalid duration "abc"'],
      [{ default_lease_ttl: ['1h'] }, expect.stringMatching(/^Field validation failed: error converting input for field "default_lease_ttl"/) as unknown as string],
    ]
    for (const [body, message] of refusals) {
      const answer = await api.write('/v1/sys/auth/cloud/tune', body)
      expect([answer.status, answer.body], JSON.stringify(body)).toEqual([400, errors(message)])
    }
    expect(await api.write('/v1/sys/auth/nope/tune', { max_lease_ttl: '1h' })).toMatchObject({ status: 400, body: errors('tune of path "auth/nope/" failed: no mount entry found') })
    // Vault's other tuning fields are not emulated: refused as the path was, with why
    const other = await api.write('/v1/sys/auth/cloud/tune', { max_lease_ttl: '1h', plugin_version: 'v1.0.0' })
    expect(other.status).toBe(404)
    expect(api.doppel.journal.entries().at(-1)!.explanation).toMatchObject({ seen: 'tuning of plugin_version' })
    expect(await api.write('/v1/sys/auth/cloud/tune', { listing_visibility: 'nope' })).toMatchObject({ status: 400, body: errors('invalid listing_visibility nope') })
    // token_type is checked after the TTLs, and nothing is changed
    expect(await api.write('/v1/sys/auth/cloud/tune', { max_lease_ttl: '1h', token_type: 'nope' })).toMatchObject({ status: 400, body: errors("invalid value for 'token_type'") })
    expect(await api.write('/v1/sys/auth/token/tune', { token_type: '' })).toMatchObject({
      status: 400,
      body: errors("'token_type' cannot be set for 'token' or 'ns_token' auth mounts"),
    })
    expect(state()).toBe(before)
  })

  it("takes an enable's config as its first tuning, and its options and flags, refusing as the real server does (probed there)", async () => {
    const api = managementClient()
    const config = { default_lease_ttl: '1h', max_lease_ttl: '2h', token_type: 'batch', listing_visibility: 'unauth', audit_non_hmac_request_keys: 'a,b', passthrough_request_headers: ['X-A'], allowed_response_headers: 'X-B', description: 'in-config' }
    expect((await api.write('/v1/sys/auth/set', { type: 'aws', config, options: { a: 'b' }, local: true, seal_wrap: true })).status).toBe(204)
    expect((await api.read('/v1/sys/auth/set/tune')).body.data).toEqual({
      allowed_response_headers: ['X-B'],
      audit_non_hmac_request_keys: ['a', 'b'],
      default_lease_ttl: 3600,
      description: '',
      force_no_cache: false,
      listing_visibility: 'unauth',
      max_lease_ttl: 7200,
      options: { a: 'b' },
      passthrough_request_headers: ['X-A'],
      token_type: 'batch',
    })
    expect((await api.read('/v1/sys/auth/set')).body.data).toMatchObject({ options: { a: 'b' }, local: true, seal_wrap: true, external_entropy_access: false, config: { default_lease_ttl: 3600, max_lease_ttl: 7200 } })
    // A list given as one text is split as the SDK splits a comma list, empty items kept (seen on the real server)
    await api.write('/v1/sys/auth/commas', { type: 'aws', config: { audit_non_hmac_request_keys: 'a, ,b', passthrough_request_headers: '' } })
    expect((await api.read('/v1/sys/auth/commas/tune')).body.data).toMatchObject({ audit_non_hmac_request_keys: ['a', '', 'b'] })
    expect((await api.read('/v1/sys/auth/commas/tune')).body.data).not.toHaveProperty('passthrough_request_headers')
    // Vault's CLI sends `"options": null`: the entry shows null; none given, an empty map
    await api.write('/v1/sys/auth/cli', { type: 'aws', options: null, config: { default_lease_ttl: '800h', max_lease_ttl: '900h' } })
    expect((await api.read('/v1/sys/auth/cli')).body.data).toMatchObject({ options: null, config: { default_lease_ttl: 2880000, max_lease_ttl: 3240000 } })
    const before = JSON.stringify((await api.read('/v1/sys/auth')).body.data)
    const refusals: [unknown, number, string][] = [
      [{ type: 'aws', config: 'x' }, 400, `Field validation failed: error converting input for field "config": '' expected type 'map[string]interface {}', got unconvertible type 'string', value: 'x'`],
      [{ type: 'aws', config: { default_lease_ttl: 'abc' } }, 400, 'unable to parse default TTL of abc: time: invalid duration "abc"'],
      [{ type: 'aws', config: { max_lease_ttl: 'abc' } }, 400, 'unable to parse max TTL of abc: time: invalid duration "abc"'],
      [{ type: 'aws', config: { default_lease_ttl: '2h', max_lease_ttl: '1h' } }, 400, 'given default lease TTL greater than given max lease TTL'],
      [{ type: 'aws', config: { default_lease_ttl: '800h' } }, 400, 'given default lease TTL greater than system max lease TTL of 2764800'],
      [{ type: 'aws', config: { token_type: 'nope' } }, 400, "invalid value for 'token_type'"],
      [{ type: '', config: { token_type: 'nope' } }, 400, "invalid value for 'token_type'"],
      [{ type: 'aws', config: { listing_visibility: 'nope' } }, 400, 'invalid listing_visibility nope'],
      [{ type: 'aws', config: { plugin_version: 'v1.0.0' } }, 400, 'plugin not found in the catalog: aws, version=v1.0.0'],
      [{ type: 'aws', config: { plugin_version: 'nope' } }, 400, 'version "nope" is not a valid semantic version: malformed version: nope'],
      [{ type: 'aws', options: { version: '2' } }, 400, 'auth method "aws" does not allow setting a version'],
      [{ type: 'aws', config: { force_no_cache: 'yes' } }, 400, 'unable to convert given auth config information'],
      [{ type: 'nope', config: { token_type: 'batch' } }, 400, 'plugin not found in the catalog: nope'],
    ]
    for (const [body, status, message] of refusals) {
      expect(await api.write('/v1/sys/auth/refused', body), JSON.stringify(body)).toMatchObject({ status, body: errors(message) })
    }
    expect(JSON.stringify((await api.read('/v1/sys/auth')).body.data)).toBe(before)
    // The builtin's own version may be named; the mount runs the builtin
    expect((await api.write('/v1/sys/auth/builtin', { type: 'aws', config: { plugin_version: 'v1.21.4+builtin' } })).status).toBe(204)
    // A snapshot keeps them
    const snapshot = api.doppel.snapshot()
    api.doppel.restore(snapshot)
    expect((await api.read('/v1/sys/auth/set/tune')).body.data).toMatchObject({ default_lease_ttl: 3600, token_type: 'batch', options: { a: 'b' } })
    expect((await api.read('/v1/sys/auth/cli')).body.data.options).toBeNull()
  })

  it("refuses user lockout tuning on the method's and the token mount, as Vault does for their types", async () => {
    const api = managementClient()
    const lockout = { user_lockout_config: { lockout_threshold: '5' } }
    expect(await api.write('/v1/sys/mounts/auth/cloud/tune', lockout)).toMatchObject({ status: 400, body: errors('tuning of user lockout configuration for auth type "aws" not allowed') })
    expect(await api.write('/v1/sys/auth/token/tune', lockout)).toMatchObject({ status: 400, body: errors('tuning of user lockout configuration for auth type "token" not allowed') })
  })

  it('tunes a mount through sys/mounts/auth/<path>/tune too (Vault\'s CLI and Go client), and takes what Vault\'s client sends unasked', async () => {
    const api = managementClient()
    expect((await api.write('/v1/sys/auth/team/aws', { type: 'aws' })).status).toBe(204)
    // As `bao auth tune` / `vault auth tune` send it (seen on the wire): the Go client's MountConfigInput
    const cli = { options: null, default_lease_ttl: '30m0s', max_lease_ttl: '2h0m0s', force_no_cache: false }
    expect((await api.write('/v1/sys/mounts/auth/team/aws/tune', cli)).status).toBe(204)
    const tuning = { default_lease_ttl: 1800, max_lease_ttl: 7200, description: '', force_no_cache: false, token_type: 'default-service' }
    expect((await api.read('/v1/sys/mounts/auth/team/aws/tune')).body.data).toEqual(tuning)
    expect((await api.read('/v1/sys/auth/team/aws/tune')).body.data).toEqual(tuning)
    expect(await api.read('/v1/sys/mounts/auth/nope/tune')).toMatchObject({ status: 400, body: errors('cannot fetch sysview for path "auth/nope/"') })
    expect((await api.call('DELETE', '/v1/sys/mounts/auth/team/aws/tune')).status).toBe(405)
    // The other fields' values that change nothing are taken; any other is refused with why, changing nothing
    const nothing = { options: {}, user_lockout_config: null, allowed_managed_keys: [], delegated_auth_accessors: '', identity_token_key: '', trim_request_trailing_slashes: 'false' }
    expect((await api.write('/v1/sys/mounts/auth/team/aws/tune', { ...nothing, description: 'team' })).status).toBe(204)
    for (const field of [{ options: { version: '2' } }, { trim_request_trailing_slashes: true }, { plugin_version: '' }, { allowed_managed_keys: 'k' }]) {
      expect((await api.write('/v1/sys/mounts/auth/team/aws/tune', { ...field, description: 'changed' })).status, JSON.stringify(field)).toBe(404)
      expect(api.doppel.journal.entries().at(-1)!.explanation).toMatchObject({ seen: `tuning of ${Object.keys(field)[0]}` })
    }
    expect((await api.read('/v1/sys/auth/team/aws/tune')).body.data.description).toBe('team')
    // Other paths under sys/mounts are not emulated: the system backend's 404, after the token check
    expect(await api.read('/v1/sys/mounts/secret/tune')).toMatchObject({ status: 404, body: errors('1 error occurred:\n\t* unsupported path\n\n') })
    expect((await api.read('/v1/sys/mounts/auth/team/aws/tune', { anonymous: true })).status).toBe(403)
  })

  it("reads a mount's own entry as the list shows it, and refuses a path with none (seen on the real server)", async () => {
    const api = managementClient()
    await api.write('/v1/sys/auth/second', { type: 'aws', description: 'for tests' })
    const list = await api.read('/v1/sys/auth')
    const one = await api.read('/v1/sys/auth/second')
    expect(one.status).toBe(200)
    expect(one.body.data).toEqual(list.body.data['second/'])
    expect(one.body.type).toBe('aws')
    expect(one.body.mount_type).toBe('system')
    // Enabled through sys/auth: an empty options map; the token mount, made at init, has none.
    expect(one.body.data.options).toEqual({})
    expect(list.body.data['token/'].options).toBeNull()
    expect(one.body.data.running_plugin_version).toBe('v1.21.4+builtin')
    expect(list.body.data['token/'].running_plugin_version).toBe('v1.21.4+builtin.vault')
    for (const [path, engine] of [['nope', 'nope/'], ['second/x', 'second/x/']]) {
      const answer = await api.read(`/v1/sys/auth/${path}`)
      expect([answer.status, answer.body]).toEqual([400, errors(`No auth engine at ${engine}`)])
    }
  })

  it('disables a mount with 204, dropping its state; enabling it again starts empty', async () => {
    const api = managementClient()
    await api.write('/v1/sys/auth/temp', { type: 'aws' })
    await api.write('role/r', ROLE, { mount: 'temp' })
    expect((await api.remove('/v1/sys/auth/temp')).status).toBe(204)
    const gone = await api.read('role/r', { mount: 'temp' })
    expect(gone.status).toBe(404)
    expect(gone.body).toEqual(errors('no handler for route "auth/temp/role/r". route entry not found.'))
    await api.write('/v1/sys/auth/temp', { type: 'aws' })
    expect((await api.list('roles', { mount: 'temp' })).status).toBe(404)
    expect((await api.remove('/v1/sys/auth/never-there')).status).toBe(204)
  })

  it('needs the root token', async () => {
    const api = managementClient()
    for (const answer of [
      await api.read('/v1/sys/auth', { anonymous: true }),
      await api.write('/v1/sys/auth/x', { type: 'aws' }, { anonymous: true }),
      await api.remove('/v1/sys/auth/cloud', { anonymous: true }),
    ]) {
      expect(answer.status).toBe(403)
      expect(answer.body).toEqual(errors('permission denied'))
    }
    expect((await api.read('roles?list=true')).status).toBe(404)
  })

  it('starts from the profile’s mounts again after reset', async () => {
    const api = managementClient()
    await api.write('/v1/sys/auth/extra', { type: 'aws' })
    await api.write('role/r', ROLE)
    await api.doppel.reset()
    expect(Object.keys((await api.read('/v1/sys/auth')).body.data).sort()).toEqual(['cloud/', 'token/'])
    expect((await api.read('role/r')).status).toBe(404)
  })
})
