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

  it("reads a mount's tuning as the real service does for a mount no one tuned, and changes none", async () => {
    const api = managementClient()
    await api.write('/v1/sys/auth/second', { type: 'aws', description: 'for tests' })
    const tune = await api.read('/v1/sys/auth/second/tune')
    expect(tune.status).toBe(200)
    expect(tune.body.data).toEqual({ default_lease_ttl: 2764800, description: 'for tests', force_no_cache: false, max_lease_ttl: 2764800, token_type: 'default-service' })
    expect(tune.body.max_lease_ttl).toBe(2764800)
    expect((await api.read('/v1/sys/auth/token/tune')).body.data.description).toBe('token based credentials')
    const missing = await api.read('/v1/sys/auth/nope/tune')
    expect([missing.status, missing.body]).toEqual([400, errors('cannot fetch sysview for path "auth/nope/"')])
    // Tuning is not emulated: a write is refused, and makes no mount named after it.
    const write = await api.write('/v1/sys/auth/second/tune', { max_lease_ttl: '1h' })
    expect(write.status).toBe(404)
    expect(Object.keys((await api.read('/v1/sys/auth')).body.data).sort()).toEqual(['cloud/', 'second/', 'token/'])
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
