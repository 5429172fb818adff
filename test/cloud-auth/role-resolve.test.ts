import { describe, expect, it } from 'vitest'
import { getFakeCloud } from '../../src/services/fake-cloud/index.ts'
import { errors, managementClient } from './management-client.ts'

const ACCOUNT = '123456789012'

/** A client whose fake cloud already has its default service identity (created on first use). */
function setup(options = {}) {
  const api = managementClient(options)
  const cloud = getFakeCloud(api.doppel)
  cloud.defaultServiceCredentials()
  return { api, cloud }
}

describe('resolve_aws_unique_ids on role writes', () => {
  it('resolves users, roles (path or not) and instance profiles to their unique ids, skipping wildcards', async () => {
    const { api, cloud } = setup()
    const alice = cloud.createPrincipal({ type: 'user', name: 'alice' })
    const web = cloud.createPrincipal({ type: 'role', name: 'web', path: '/app/' })
    const arns = [
      alice.arn,
      `arn:aws:iam::${ACCOUNT}:role/*`,
      `arn:aws:iam::${ACCOUNT}:role/web`,
      `arn:aws:iam::${ACCOUNT}:role/app/web`,
    ]
    expect((await api.write('role/r', { bound_iam_principal_arn: arns })).status).toBe(204)
    const role = (await api.read('role/r')).body.data
    expect(role.bound_iam_principal_arn).toEqual(arns)
    expect(role.bound_iam_principal_id).toEqual([alice.unique_id, web.unique_id, web.unique_id])
    expect(role.resolve_aws_unique_ids).toBe(true)
  })

  it('resolves only the non-wildcard ARNs when turned on later (Test_enableIamIDResolution)', async () => {
    const { api, cloud } = setup()
    const myRole = cloud.createPrincipal({ type: 'role', name: 'MyRole' })
    const arns = [`arn:aws:iam::${ACCOUNT}:role/MyRole`, `arn:aws:iam::${ACCOUNT}:role/path/*`]
    await api.write('role/r', { auth_type: 'iam', bound_iam_principal_arn: arns, resolve_aws_unique_ids: false, policies: 'p,q' })
    expect((await api.read('role/r')).body.data.bound_iam_principal_id).toEqual([])
    expect((await api.write('role/r', { resolve_aws_unique_ids: true })).status).toBe(204)
    const role = (await api.read('role/r')).body.data
    expect(role.bound_iam_principal_id).toEqual([myRole.unique_id])
    expect(role.bound_iam_principal_arn).toEqual(arns)
  })

  it('accepts any ARN text when resolution is off', async () => {
    const { api } = setup()
    const answer = await api.write('role/MyRoleName', {
      auth_type: 'iam',
      policies: 'p,q,r,s',
      max_ttl: '2h',
      bound_iam_principal_arn: 'n:aws:iam::123456789012:user/MyUserName',
      resolve_aws_unique_ids: false,
    })
    expect(answer.status).toBe(204)
  })

  it('re-resolves when the same ARN is posted again, refreshing a recreated principal’s id', async () => {
    const { api, cloud } = setup()
    const first = cloud.createPrincipal({ type: 'user', name: 'bob' })
    await api.write('role/r', { bound_iam_principal_arn: first.arn })
    cloud.deletePrincipal(first.arn)
    const second = cloud.createPrincipal({ type: 'user', name: 'bob' })
    expect(second.unique_id).not.toBe(first.unique_id)
    await api.write('role/r', { token_ttl: 60 })
    expect((await api.read('role/r')).body.data.bound_iam_principal_id).toEqual([first.unique_id])
    await api.write('role/r', { bound_iam_principal_arn: first.arn })
    expect((await api.read('role/r')).body.data.bound_iam_principal_id).toEqual([second.unique_id])
  })

  describe('refuses an ARN it cannot resolve, storing nothing', () => {
    const cases: [string, string, string][] = [
      ['missing user', `arn:aws:iam::${ACCOUNT}:user/nobody`, 'NoSuchEntity: The user with name nobody cannot be found.\n\tstatus code: 404, request id: '],
      ['missing role', `arn:aws:iam::${ACCOUNT}:role/nobody`, 'NoSuchEntity: The role with name nobody cannot be found.\n\tstatus code: 404, request id: '],
      ['missing instance profile', `arn:aws:iam::${ACCOUNT}:instance-profile/nobody`, 'NoSuchEntity: Instance Profile nobody cannot be found.\n\tstatus code: 404, request id: '],
      ['another account without config/sts', 'arn:aws:iam::999999999999:user/x', 'unable to fetch client for account ID "999999999999" -- default client is for account "123456789012"'],
      ['an assumed-role ARN', `arn:aws:sts::${ACCOUNT}:assumed-role/r/s`, 'unrecognized error type "assumed-role"'],
      ['an unknown partition', `arn:aws-mars:iam::${ACCOUNT}:user/x`, 'unable to resolve partition "aws-mars" to a region'],
      ['too few colons', 'arn:aws:iam::user/x', 'unrecognized arn: contains 5 colon-separated parts, expected 6'],
      ['not an ARN', 'nrn:aws:iam::1:user/x', 'unrecognized arn: does not begin with "arn:"'],
      ['another service', 'arn:aws:s3::1:user/x', 'unrecognized service: s3, not one of iam or sts'],
      ['no slash', 'arn:aws:iam::1:root', 'unrecognized arn: "root" contains fewer than 2 slash-separated parts'],
      ['a group', 'arn:aws:iam::1:group/g', 'unrecognized principal type: "group"'],
      ['a short assumed role', 'arn:aws:sts::1:assumed-role/r', 'unrecognized arn: "assumed-role/r" contains fewer than 3 slash-separated parts'],
    ]
    for (const [name, arn, inner] of cases) {
      it(name, async () => {
        const { api } = setup()
        await api.read('role/r')
        const before = api.doppel.store.snapshot()
        const answer = await api.write('role/r', { bound_iam_principal_arn: arn })
        expect(answer.status).toBe(400)
        const message: string = answer.body.errors[0]
        const prefix = `unable to resolve ARN "${arn}" to internal ID: `
        expect(message.startsWith(prefix + inner)).toBe(true)
        if (!inner.endsWith('request id: ')) expect(message).toBe(prefix + inner)
        else expect(message.slice((prefix + inner).length)).toMatch(/^[0-9a-f-]{36}$/)
        expect(api.doppel.store.snapshot()).toEqual(before)
      })
    }
  })

  it('resolves before the auth_type checks, so an unresolvable ARN wins over a type error', async () => {
    const { api } = setup()
    const answer = await api.write('role/r', { auth_type: 'ec2', bound_iam_principal_arn: `arn:aws:iam::${ACCOUNT}:user/nobody` })
    expect(answer.body.errors[0]).toMatch(/^unable to resolve ARN/)
  })

  it('resolves in another account through the config/sts role for it', async () => {
    const { api, cloud } = setup()
    cloud.createPrincipal({ type: 'role', name: 'vault-reader', account_id: '999999999999' })
    const carol = cloud.createPrincipal({ type: 'user', name: 'carol', account_id: '999999999999' })
    await api.write('config/sts/999999999999', { sts_role: 'arn:aws:iam::999999999999:role/vault-reader', external_id: 'ext' })
    expect((await api.write('role/r', { bound_iam_principal_arn: carol.arn })).status).toBe(204)
    expect((await api.read('role/r')).body.data.bound_iam_principal_id).toEqual([carol.unique_id])
  })

  it('reports an assume-role failure in the provider’s words', async () => {
    const { api } = setup()
    await api.write('config/sts/999999999999', { sts_role: 'arn:aws:iam::999999999999:role/missing' })
    const answer = await api.write('role/r', { bound_iam_principal_arn: 'arn:aws:iam::999999999999:user/x' })
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0]).toMatch(/^unable to resolve ARN "arn:aws:iam::999999999999:user\/x" to internal ID: AccessDenied: .*\n\tstatus code: 403, request id: /)
  })

  it('acts as config/client keys, and refuses half-configured keys', async () => {
    const { api, cloud } = setup()
    const dave = cloud.createPrincipal({ type: 'user', name: 'dave', account_id: '222222222222' })
    await api.write('config/client', { access_key: dave.access_key_id, secret_key: dave.secret_access_key })
    expect((await api.write('role/r', { bound_iam_principal_arn: dave.arn })).status).toBe(204)
    const other = await api.write('role/s', { bound_iam_principal_arn: `arn:aws:iam::${ACCOUNT}:user/doppel-service` })
    expect(other.body).toEqual(
      errors(
        // the first write taught the mount its default account (Vault's client.go, stsRoleForAccount)
        `unable to resolve ARN "arn:aws:iam::${ACCOUNT}:user/doppel-service" to internal ID: no STS configuration found for account ID "${ACCOUNT}"`,
      ),
    )
    await api.write('config/client', { secret_key: '' })
    const half = await api.write('role/t', { bound_iam_principal_arn: dave.arn })
    expect(half.body).toEqual(
      errors(
        `unable to resolve ARN "${dave.arn}" to internal ID: static AWS client credentials haven't been properly configured (the access key or secret key were provided but not both)`,
      ),
    )
  })

  it('acts as the CLOUD_ACCESS_KEY / CLOUD_SECRET_KEY environment when config/client has no keys', async () => {
    // Ids are seeded, so the same principal created first in a twin emulator has the same keys.
    const twin = getFakeCloud(managementClient().doppel).createPrincipal({ type: 'user', name: 'erin', account_id: '333333333333' })
    const env = { CLOUD_ACCESS_KEY: twin.access_key_id, CLOUD_SECRET_KEY: twin.secret_access_key }
    const api = managementClient({ env })
    const cloud = getFakeCloud(api.doppel)
    expect(cloud.createPrincipal({ type: 'user', name: 'erin', account_id: '333333333333' }).access_key_id).toBe(twin.access_key_id)
    const frank = cloud.createPrincipal({ type: 'user', name: 'frank', account_id: '333333333333' })
    expect((await api.write('role/r', { bound_iam_principal_arn: frank.arn })).status).toBe(204)
    expect((await api.read('role/r')).body.data.bound_iam_principal_id).toEqual([frank.unique_id])
    const elsewhere = await api.write('role/s', { bound_iam_principal_arn: `arn:aws:iam::${ACCOUNT}:user/x` })
    expect(elsewhere.body.errors[0]).toBe(
      `unable to resolve ARN "arn:aws:iam::${ACCOUNT}:user/x" to internal ID: no STS configuration found for account ID "${ACCOUNT}"`,
    )
  })

  // `env` at the top is the deprecated spelling of `cloudAuth: { env }`, kept for one release.
  const env = { CLOUD_ACCESS_KEY: 'AKIAUNKNOWN', CLOUD_SECRET_KEY: 'nope' }
  it.each([{ cloudAuth: { env } }, { env }])('reports unusable base credentials as the real service does (%o)', async (options) => {
    const api = managementClient(options)
    const answer = await api.write('role/r', { bound_iam_principal_arn: `arn:aws:iam::${ACCOUNT}:user/x` })
    const message: string = answer.body.errors[0]
    expect(message).toBe(
      `unable to resolve ARN "arn:aws:iam::${ACCOUNT}:user/x" to internal ID: unable to fetch current caller: InvalidClientTokenId: The security token included in the request is invalid.\n\tstatus code: 403, request id: ${message.slice(-36)}`,
    )
  })
})
