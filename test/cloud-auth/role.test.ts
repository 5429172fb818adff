import { describe, expect, it } from 'vitest'
import { errors, managementClient } from './management-client.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** The write of the real service's TestAwsEc2_RoleCrud (docs/reference/cloud-auth.md §3.7). */
const ROLE_CRUD_WRITE = {
  auth_type: 'ec2',
  bound_ami_id: 'testamiid',
  bound_account_id: 'testaccountid',
  bound_region: 'testregion',
  bound_iam_role_arn: 'arn:aws:iam::123456789012:role/MyRole',
  bound_iam_instance_profile_arn: 'arn:aws:iam::123456789012:instance-profile/MyInstancePro*',
  bound_subnet_id: 'testsubnetid',
  bound_vpc_id: 'testvpcid',
  bound_ec2_instance_id: 'i-12345678901234567,i-76543210987654321',
  role_tag: 'testtag',
  resolve_aws_unique_ids: false,
  allow_instance_migration: true,
  ttl: '10m',
  max_ttl: '20m',
  policies: 'testpolicy1,testpolicy2',
  disallow_reauthentication: false,
  hmac_key: 'testhmackey',
  period: '1m',
}

const ROLE_CRUD_READ = {
  auth_type: 'ec2',
  bound_ami_id: ['testamiid'],
  bound_account_id: ['testaccountid'],
  bound_region: ['testregion'],
  bound_ec2_instance_id: ['i-12345678901234567', 'i-76543210987654321'],
  bound_iam_principal_arn: [],
  bound_iam_principal_id: [],
  bound_iam_role_arn: ['arn:aws:iam::123456789012:role/MyRole'],
  bound_iam_instance_profile_arn: ['arn:aws:iam::123456789012:instance-profile/MyInstancePro*'],
  bound_subnet_id: ['testsubnetid'],
  bound_vpc_id: ['testvpcid'],
  inferred_entity_type: '',
  inferred_aws_region: '',
  resolve_aws_unique_ids: false,
  role_tag: 'testtag',
  allow_instance_migration: true,
  ttl: 600,
  token_ttl: 600,
  max_ttl: 1200,
  token_max_ttl: 1200,
  token_explicit_max_ttl: 0,
  policies: ['testpolicy1', 'testpolicy2'],
  token_policies: ['testpolicy1', 'testpolicy2'],
  disallow_reauthentication: false,
  period: 60,
  token_period: 60,
  token_bound_cidrs: [],
  token_no_default_policy: false,
  token_num_uses: 0,
  token_type: 'default',
  role_id: expect.stringMatching(UUID),
}

const EC2 = { auth_type: 'ec2', bound_ami_id: 'ami-1' }
const IAM = { auth_type: 'iam', bound_iam_principal_arn: 'arn:aws:iam::123456789012:role/*' }

describe('role/:role', () => {
  it('reads back the real service’s TestAwsEc2_RoleCrud role exactly (hmac_key ignored)', async () => {
    const api = managementClient()
    expect((await api.write('role/role1', ROLE_CRUD_WRITE)).status).toBe(204)
    const answer = await api.read('role/role1')
    expect(answer.status).toBe(200)
    expect(answer.body.data).toStrictEqual(ROLE_CRUD_READ)
    expect(answer.body.warnings).toBeNull()

    expect((await api.write('role/role1', { bound_vpc_id: 'newvpcid' })).status).toBe(204)
    expect((await api.read('role/role1')).body.data.bound_vpc_id).toEqual(['newvpcid'])
    expect((await api.write('role/role1', { bound_ami_id: 'testamiid2' })).status).toBe(204)
    const updated = (await api.read('role/role1')).body.data
    expect(updated.bound_ami_id).toEqual(['testamiid2'])
    expect(updated.role_id).toBe(answer.body.data.role_id)
    expect((await api.remove('role/role1')).status).toBe(204)
    expect((await api.read('role/role1')).status).toBe(404)
  })

  it('reads durations given as strings back as integer seconds (TestAwsEc2_RoleDurationSeconds)', async () => {
    const api = managementClient()
    await api.write('role/d', {
      auth_type: 'ec2',
      bound_iam_instance_profile_arn: 'arn:aws:iam::123456789012:instance-profile/test-profile-name',
      resolve_aws_unique_ids: false,
      ttl: '10s',
      max_ttl: '20s',
      period: '30s',
    })
    expect((await api.read('role/d')).body.data).toMatchObject({ ttl: 10, max_ttl: 20, period: 30 })
  })

  it('has case-insensitive names: written, read, listed and deleted under any casing', async () => {
    const api = managementClient()
    await api.write('role/MyRole', EC2)
    expect((await api.read('role/MYROLE')).status).toBe(200)
    expect((await api.list('roles')).body.data.keys).toEqual(['myrole'])
    await api.write('role/myrole', { bound_ami_id: 'ami-2' })
    expect((await api.read('role/MyRole')).body.data.bound_ami_id).toEqual(['ami-2'])
    expect((await api.remove('role/MYrole')).status).toBe(204)
    expect((await api.list('roles')).status).toBe(404)
  })

  it('shows the read quirks: bound_ec2_instance_id null until set, [] once set empty; no deprecated keys by default', async () => {
    const api = managementClient()
    await api.write('role/q', EC2)
    const fresh = (await api.read('role/q')).body.data
    expect(fresh.bound_ec2_instance_id).toBeNull()
    for (const key of ['bound_ami_id', 'bound_account_id', 'bound_region', 'bound_vpc_id', 'bound_subnet_id']) {
      expect(fresh).toHaveProperty(key)
    }
    expect(fresh.bound_account_id).toEqual([])
    for (const key of ['ttl', 'max_ttl', 'period', 'policies']) expect(fresh).not.toHaveProperty(key)
    expect(fresh).not.toHaveProperty('hmac_key')
    expect(fresh.resolve_aws_unique_ids).toBe(true)
    expect(fresh.token_type).toBe('default')
    await api.write('role/q', { bound_ec2_instance_id: '' })
    expect((await api.read('role/q')).body.data.bound_ec2_instance_id).toEqual([])
  })

  it('defaults auth_type to iam and keeps a role_id that never changes', async () => {
    const api = managementClient()
    await api.write('role/i', IAM)
    const first = (await api.read('role/i')).body.data
    expect(first.auth_type).toBe('iam')
    await api.write('role/i', { token_ttl: 60 })
    expect((await api.read('role/i')).body.data.role_id).toBe(first.role_id)
  })

  it('keeps token_policies as given but sanitises the deprecated policies', async () => {
    const api = managementClient()
    await api.write('role/p', { ...EC2, token_policies: 'B, a,a,,' })
    const tokenOnly = (await api.read('role/p')).body.data
    expect(tokenOnly.token_policies).toEqual(['B', 'a', 'a', '', ''])
    expect(tokenOnly).not.toHaveProperty('policies')
    await api.write('role/p', { policies: ' B, a,a,,C' })
    const old = (await api.read('role/p')).body.data
    expect(old.policies).toEqual(['a', 'b', 'c'])
    expect(old.token_policies).toEqual(['a', 'b', 'c'])
  })

  it('clears a deprecated value when only the new name is given, and copies the new one when both are', async () => {
    const api = managementClient()
    await api.write('role/t', { ...EC2, ttl: 60, max_ttl: 120, period: 30 })
    expect((await api.read('role/t')).body.data).toMatchObject({ ttl: 60, token_ttl: 60, max_ttl: 120, period: 30 })
    await api.write('role/t', { token_ttl: 90 })
    const cleared = (await api.read('role/t')).body.data
    expect(cleared).not.toHaveProperty('ttl')
    expect(cleared.token_ttl).toBe(90)
    expect(cleared.max_ttl).toBe(120)
    await api.write('role/t', { max_ttl: 100, token_max_ttl: 200 })
    expect((await api.read('role/t')).body.data).toMatchObject({ max_ttl: 200, token_max_ttl: 200 })
  })

  it('warns (200, data null) when token_max_ttl is above the mount maximum', async () => {
    const api = managementClient()
    const answer = await api.write('role/w', { ...EC2, token_max_ttl: '800h' })
    expect(answer.status).toBe(200)
    expect(answer.body.data).toBeNull()
    expect(answer.body.warnings).toEqual([
      'Given max ttl of 2880000 seconds greater than current mount/system default of 2764800 seconds; max ttl will be capped at login time',
    ])
    expect((await api.read('role/w')).body.data.token_max_ttl).toBe(2880000)
  })

  it('parses token settings: CIDRs in read form, types, counts', async () => {
    const api = managementClient()
    await api.write('role/c', {
      ...EC2,
      token_bound_cidrs: '10.0.0.1, 10.1.2.3/8,192.168.0.0/32,2001:DB8:0:0::1/128,2001:db8::/32,/tmp/sock',
      token_type: 'batch',
      token_no_default_policy: true,
      token_explicit_max_ttl: '1h',
    })
    const role = (await api.read('role/c')).body.data
    expect(role.token_bound_cidrs).toEqual(['10.0.0.1', '10.1.2.3/8', '192.168.0.0', '2001:db8::1', '2001:db8::/32', '/tmp/sock'])
    expect(role).toMatchObject({ token_type: 'batch', token_no_default_policy: true, token_explicit_max_ttl: 3600 })
  })

  describe('refuses, in the reference’s order, and stores nothing', () => {
    const cases: { name: string; setup?: Record<string, unknown>; body: Record<string, unknown>; message: string }[] = [
      { name: 'resolve true → false', setup: IAM, body: { resolve_aws_unique_ids: false }, message: 'changing resolve_aws_unique_ids from true to false is not allowed' },
      { name: 'bad auth_type', body: { auth_type: 'ec2,invalid', bound_ami_id: 'a' }, message: 'unrecognized auth_type: ec2,invalid' },
      { name: 'list-like auth_type', body: { auth_type: 'ec2,,iam', bound_ami_id: 'a' }, message: 'unrecognized auth_type: ec2,,iam' },
      { name: 'changing auth_type', setup: EC2, body: { auth_type: 'iam' }, message: 'changing auth_type on a role is not allowed' },
      { name: 'inferred on ec2', body: { ...EC2, inferred_entity_type: 'ec2_instance', inferred_aws_region: 'r' }, message: "specified inferred_entity_type but didn't allow iam auth_type" },
      { name: 'bad inferred type', body: { ...IAM, inferred_entity_type: 'invalid' }, message: 'specified invalid inferred_entity_type: invalid' },
      { name: 'inferred without region', body: { ...IAM, inferred_entity_type: 'ec2_instance' }, message: 'specified inferred_entity_type but not inferred_aws_region' },
      { name: 'region without inferred', body: { ...IAM, inferred_aws_region: 'us-east-1' }, message: 'specified inferred_aws_region but not inferred_entity_type' },
      { name: 'bound_account_id on iam', body: { ...IAM, bound_account_id: '1' }, message: 'specified bound_account_id but not specifying ec2 auth_type or inferring ec2_instance' },
      { name: 'bound_region on inferred iam', body: { ...IAM, inferred_entity_type: 'ec2_instance', inferred_aws_region: 'r', bound_region: 'r' }, message: 'specified bound_region but not specifying ec2 auth_type' },
      { name: 'bound_ami_id on iam', body: { ...IAM, bound_ami_id: 'a' }, message: 'specified bound_ami_id but not specifying ec2 auth_type or inferring ec2_instance' },
      { name: 'bound_iam_instance_profile_arn on iam', body: { ...IAM, bound_iam_instance_profile_arn: 'a' }, message: 'specified bound_iam_instance_profile_arn but not specifying ec2 auth_type or inferring ec2_instance' },
      { name: 'bound_ec2_instance_id on iam', body: { ...IAM, bound_ec2_instance_id: 'i' }, message: 'specified bound_ec2_instance_id but not specifying ec2 auth_type or inferring ec2_instance' },
      { name: 'bound_iam_role_arn on iam', body: { ...IAM, bound_iam_role_arn: 'a' }, message: 'specified bound_iam_role_arn but not specifying ec2 auth_type or inferring ec2_instance' },
      { name: 'bound_iam_principal_arn on ec2', body: { ...EC2, bound_iam_principal_arn: 'arn:aws:iam::1:role/*' }, message: 'specified bound_iam_principal_arn but not specifying iam auth_type' },
      { name: 'bound_vpc_id on iam', body: { ...IAM, bound_vpc_id: 'v' }, message: 'specified bound_vpc_id but not specifying ec2 auth_type or inferring ec2_instance' },
      { name: 'bound_subnet_id on iam', body: { ...IAM, bound_subnet_id: 's' }, message: 'specified bound_subnet_id but not specifying ec2 auth_type or inferring ec2_instance' },
      { name: 'the first failing bind wins', body: { ...IAM, bound_subnet_id: 's', bound_account_id: '1' }, message: 'specified bound_account_id but not specifying ec2 auth_type or inferring ec2_instance' },
      { name: 'no binds', body: { auth_type: 'ec2' }, message: 'at least one bound parameter should be specified on the role' },
      { name: 'inferencing alone is no bind', body: { inferred_entity_type: 'ec2_instance', inferred_aws_region: 'r' }, message: 'at least one bound parameter should be specified on the role' },
      { name: 'only empty binds', body: { auth_type: 'ec2', bound_ami_id: '', bound_vpc_id: [] }, message: 'at least one bound parameter should be specified on the role' },
      { name: 'disallow_reauthentication on iam', body: { ...IAM, disallow_reauthentication: false }, message: 'specified disallow_reauthentication when not using ec2 auth type' },
      { name: 'allow_instance_migration on iam', body: { ...IAM, allow_instance_migration: true }, message: 'specified allow_instance_migration when not using ec2 auth type' },
      { name: 'both reauth flags', body: { ...EC2, allow_instance_migration: true, disallow_reauthentication: true }, message: 'cannot specify both disallow_reauthentication=true and allow_instance_migration=true' },
      { name: 'bad CIDR', body: { ...EC2, token_bound_cidrs: '10.0.0.1,nope' }, message: 'error parsing address "nope": Unable to convert "nope" to an IPv4 or IPv6 address, or a UNIX Socket' },
      { name: 'empty CIDR item', body: { ...EC2, token_bound_cidrs: '10.0.0.1,' }, message: 'error parsing address "": Unable to convert "" to an IPv4 or IPv6 address, or a UNIX Socket' },
      { name: 'bad token_type', body: { ...EC2, token_type: 'default-service' }, message: `invalid 'token_type' value "default-service"` },
      { name: 'batch periodic', body: { ...EC2, token_type: 'batch', token_period: 60 }, message: "'token_type' cannot be 'batch' or 'default_batch' when set to generate periodic tokens" },
      { name: 'batch with uses', body: { ...EC2, token_type: 'batch', token_num_uses: 3 }, message: "'token_type' cannot be 'batch' or 'default_batch' when set to generate tokens with limited use count" },
      { name: 'negative uses', body: { ...EC2, token_num_uses: -1 }, message: "'token_num_uses' cannot be negative" },
      { name: 'token_ttl above token_max_ttl', body: { ...EC2, token_ttl: 120, token_max_ttl: 60 }, message: "'token_ttl' cannot be greater than 'token_max_ttl'" },
      { name: 'ttl above max_ttl via deprecated names', body: { ...EC2, ttl: 120, max_ttl: 60 }, message: 'ttl should be shorter than max ttl' },
      { name: 'period above the mount maximum', body: { ...EC2, token_period: '1000h' }, message: 'period of "1000h0m0s" is greater than the backend\'s maximum lease TTL of "768h0m0s"' },
      { name: 'role_tag on iam', body: { ...IAM, role_tag: '' }, message: 'tried to enable role_tag when not using ec2 auth method' },
      { name: 'role_tag too long', body: { ...EC2, role_tag: 'k'.repeat(128) }, message: 'length of role tag exceeds the EC2 key limit of 127 characters' },
    ]
    for (const { name, setup, body, message } of cases) {
      it(name, async () => {
        const api = managementClient()
        if (setup) expect((await api.write('role/r', setup)).status).toBe(204)
        await api.read('role/r')
        const before = api.doppel.store.snapshot()
        const answer = await api.write('role/r', body)
        expect(answer.status).toBe(400)
        expect(answer.body).toEqual(errors(message))
        expect(api.doppel.store.snapshot()).toEqual(before)
      })
    }
  })

  it('accepts a role tag key of exactly 127 characters', async () => {
    expect((await managementClient().write('role/r', { ...EC2, role_tag: 'k'.repeat(127) })).status).toBe(204)
  })

  it('lists through role and roles; none gives 404', async () => {
    const api = managementClient()
    expect((await api.list('role')).status).toBe(404)
    await api.write('role/ami-abcd123', EC2)
    await api.write('role/ami-abcd456', EC2)
    expect((await api.write('role/ami-abcd456', { bound_iam_principal_arn: '' })).status).toBe(204)
    expect((await api.list('roles')).body.data.keys).toEqual(['ami-abcd123', 'ami-abcd456'])
    expect((await api.remove('role/missing')).status).toBe(204)
  })
})
