import { beforeEach, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { accountOfKeyId, getFakeCloud, seedCloud, type AwsCredentials, type Principal } from '../../src/services/fake-cloud/index.ts'

// The direct face the auth service calls in process: same operations and errors as the HTTP API.
const doppel = createDoppel({ seed: 21, clock: { start: '2024-03-05T09:41:27Z', frozen: true } })
const cloud = getFakeCloud(doppel)
beforeEach(() => doppel.reset())

const creds = (p: Principal): AwsCredentials => ({ accessKeyId: p.access_key_id, secretAccessKey: p.secret_access_key, sessionToken: p.session_token })
const error = (code: string, status: number, message?: string) => expect.objectContaining({ code, status, ...(message !== undefined && { message }) })

describe('default service identity', () => {
  it('is the IAM user doppel-service in 123456789012, with a key that depends only on the seed', async () => {
    const service = cloud.defaultServiceCredentials()
    expect(cloud.getCallerIdentity(service)).toMatchObject({ arn: 'arn:aws:iam::123456789012:user/doppel-service', account: '123456789012' })
    expect(cloud.defaultServiceCredentials()).toEqual(service)

    const other = createDoppel({ seed: 21 })
    getFakeCloud(other).createInstance({})
    getFakeCloud(other).createPrincipal({ type: 'user', name: 'alice' })
    expect(getFakeCloud(other).defaultServiceCredentials()).toEqual(service)
    expect(getFakeCloud(createDoppel({ seed: 22 })).defaultServiceCredentials()).not.toEqual(service)
    await doppel.reset()
    expect(cloud.defaultServiceCredentials()).toEqual(service)
  })
})

describe('provider calls', () => {
  it('an unknown key, a wrong secret, a bad session token, an expired session', () => {
    expect(() => cloud.getCallerIdentity({ accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'x' })).toThrow(
      error('InvalidClientTokenId', 403, 'The security token included in the request is invalid.'),
    )
    const alice = cloud.createPrincipal({ type: 'user', name: 'alice' })
    expect(() => cloud.getCallerIdentity({ ...creds(alice), secretAccessKey: 'nope' })).toThrow(error('SignatureDoesNotMatch', 403))
    const role = cloud.createPrincipal({ type: 'role', name: 'deployer' })
    expect(() => cloud.getCallerIdentity({ ...creds(role), sessionToken: undefined })).toThrow(error('InvalidClientTokenId', 403))
    doppel.clock.advance('1h')
    expect(() => cloud.getCallerIdentity(creds(role))).toThrow(error('ExpiredToken', 403, 'The security token included in the request is expired'))
  })

  it('describeInstance sees only the caller account and the asked region; EC2 codes for auth failures', () => {
    const service = cloud.defaultServiceCredentials()
    const mine = cloud.createInstance({ region: 'us-west-2', iam_role_name: 'web', tags: { Name: 'a' } })
    expect(cloud.describeInstance(service, 'us-west-2', mine.instance_id)).toEqual({
      instanceId: mine.instance_id,
      imageId: mine.ami_id,
      subnetId: mine.subnet_id,
      vpcId: mine.vpc_id,
      state: { code: 16, name: 'running' },
      launchTime: '2024-03-05T09:41:27Z',
      privateDnsName: `ip-${mine.private_ip.replace(/\./g, '-')}.us-west-2.compute.internal`,
      iamInstanceProfile: { arn: mine.instance_profile_arn, id: mine.instance_profile_id },
      tags: [{ key: 'Name', value: 'a' }],
      ownerId: '123456789012',
    })
    const notFound = error('InvalidInstanceID.NotFound', 400, `The instance ID '${mine.instance_id}' does not exist`)
    expect(() => cloud.describeInstance(service, 'us-east-1', mine.instance_id)).toThrow(notFound)
    const theirs = cloud.createInstance({ region: 'us-west-2', account_id: '210987654321' })
    expect(() => cloud.describeInstance(service, 'us-west-2', theirs.instance_id)).toThrow(error('InvalidInstanceID.NotFound', 400))
    expect(() => cloud.describeInstance(service, 'us-west-2', 'i-bad')).toThrow(error('InvalidInstanceID.Malformed', 400, 'Invalid id: "i-bad"'))
    expect(() => cloud.describeInstance({ ...service, secretAccessKey: 'x' }, 'us-west-2', mine.instance_id)).toThrow(
      error('AuthFailure', 401, 'AWS was not able to validate the provided access credentials'),
    )
    cloud.setInstanceState(mine.instance_id, 'stopped')
    expect(cloud.describeInstance(service, 'us-west-2', mine.instance_id).state).toEqual({ code: 80, name: 'stopped' })
  })

  it('IAM lookups by friendly name, in the caller account, with NoSuchEntity messages', () => {
    const service = cloud.defaultServiceCredentials()
    const instance = cloud.createInstance({ iam_role_name: 'web' })
    const alice = cloud.createPrincipal({ type: 'user', name: 'alice', path: '/a/' })
    expect(cloud.getUser(service, 'alice')).toEqual({ arn: alice.arn, id: alice.unique_id, name: 'alice', path: '/a/' })
    expect(cloud.getUser(creds(alice))).toMatchObject({ arn: alice.arn })
    const role = cloud.getRole(service, 'web')
    expect(role).toMatchObject({ arn: instance.iam_role_arn, name: 'web', path: '/' })
    expect(cloud.getInstanceProfile(service, 'web')).toEqual({
      arn: instance.instance_profile_arn,
      id: instance.instance_profile_id,
      name: 'web',
      path: '/',
      roles: [{ arn: role.arn, id: role.id, name: 'web' }],
    })
    expect(() => cloud.getUser(service, 'bob')).toThrow(error('NoSuchEntity', 404, 'The user with name bob cannot be found.'))
    expect(() => cloud.getRole(service, 'nope')).toThrow(error('NoSuchEntity', 404, 'The role with name nope cannot be found.'))
    expect(() => cloud.getInstanceProfile(service, 'nope')).toThrow(error('NoSuchEntity', 404, 'Instance Profile nope cannot be found.'))
    const outsider = cloud.createPrincipal({ type: 'user', name: 'carol', account_id: '210987654321' })
    expect(() => cloud.getUser(creds(outsider), 'alice')).toThrow(error('NoSuchEntity', 404))
    const session = cloud.createPrincipal({ type: 'role', name: 'deployer' })
    expect(() => cloud.getUser(creds(session))).toThrow(error('ValidationError', 400, 'Must specify userName when calling with non-User credentials'))
    expect(() => cloud.getRole(service, 'bad name')).toThrow(
      error(
        'ValidationError',
        400,
        "1 validation error detected: Value 'bad name' at 'roleName' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w+=,.@-]+",
      ),
    )
  })

  it('createAccessKey (two at most) and deleteAccessKey (a key may delete itself)', () => {
    const alice = cloud.createPrincipal({ type: 'user', name: 'alice' })
    const second = cloud.createAccessKey(creds(alice))
    expect(second).toMatchObject({ userName: 'alice', accessKeyId: expect.stringMatching(/^AKIA/) })
    expect(cloud.getCallerIdentity({ accessKeyId: second.accessKeyId, secretAccessKey: second.secretAccessKey }).arn).toBe(alice.arn)
    expect(() => cloud.createAccessKey(creds(alice), 'alice')).toThrow(error('LimitExceeded', 409, 'Cannot exceed quota for AccessKeysPerUser: 2'))
    expect(() => cloud.deleteAccessKey(creds(alice), 'AKIAIOSFODNN7EXAMPLE', 'alice')).toThrow(
      error('NoSuchEntity', 404, 'The Access Key with id AKIAIOSFODNN7EXAMPLE cannot be found.'),
    )
    cloud.deleteAccessKey(creds(alice), alice.access_key_id, 'alice')
    expect(() => cloud.getCallerIdentity(creds(alice))).toThrow(error('InvalidClientTokenId', 403))
  })

  it('assumeRole validates as STS does, caps role chaining at an hour, and sessions identify as the role', () => {
    const service = cloud.defaultServiceCredentials()
    const target = cloud.createPrincipal({ type: 'role', name: 'cross', account_id: '210987654321', max_session_duration: 7200 })
    const session = cloud.assumeRole(service, { roleArn: target.arn, sessionName: '1709631687000000000', durationSeconds: 900 })
    expect(session).toMatchObject({
      assumedRoleArn: 'arn:aws:sts::210987654321:assumed-role/cross/1709631687000000000',
      assumedRoleId: `${target.unique_id}:1709631687000000000`,
      expiration: '2024-03-05T09:56:27Z',
    })
    expect(accountOfKeyId(session.accessKeyId)).toBe('210987654321')
    expect(cloud.getCallerIdentity(session)).toEqual({ arn: session.assumedRoleArn, userId: session.assumedRoleId, account: '210987654321' })
    expect(() => cloud.assumeRole(service, { roleArn: target.arn, sessionName: 'a b' })).toThrow(
      error(
        'ValidationError',
        400,
        "1 validation error detected: Value 'a b' at 'roleSessionName' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w+=,.@-]*",
      ),
    )
    expect(() => cloud.assumeRole(service, { roleArn: 'short', sessionName: 'x', durationSeconds: 60 })).toThrow(
      error(
        'ValidationError',
        400,
        "3 validation errors detected: Value 'short' at 'roleArn' failed to satisfy constraint: Member must have length greater than or equal to 20; Value 'x' at 'roleSessionName' failed to satisfy constraint: Member must have length greater than or equal to 2; Value '60' at 'durationSeconds' failed to satisfy constraint: Member must have value greater than or equal to 900",
      ),
    )
    expect(() => cloud.assumeRole(service, { roleArn: target.arn, sessionName: 'sess', durationSeconds: 7201 })).toThrow(
      error('ValidationError', 400, 'The requested DurationSeconds exceeds the MaxSessionDuration set for this role.'),
    )
    expect(() => cloud.assumeRole(session, { roleArn: target.arn, sessionName: 'sess', durationSeconds: 3601 })).toThrow(
      error('ValidationError', 400, 'The requested DurationSeconds exceeds the 1 hour session limit for roles assumed by role chaining.'),
    )
  })
})

describe('identifiers', () => {
  it('access key ids encode their account (docs/reference/fake-cloud.md §8), odd and even', () => {
    for (const account of ['123456789012', '210987654321', '000000000001', '999999999999']) {
      const user = cloud.createPrincipal({ type: 'user', account_id: account })
      expect(user.access_key_id).toMatch(/^AKIA[A-Z2-7]{16}$/)
      expect(accountOfKeyId(user.access_key_id)).toBe(account)
    }
    expect(accountOfKeyId('AKIARZPUZDIKAAAAAAAA')).toBe('123456789012')
    expect(accountOfKeyId('not-a-key')).toBeUndefined()
  })
})

describe('seedCloud', () => {
  it('loads instances and principals, and chooses the metadata instance', async () => {
    const seeded = seedCloud(doppel, {
      accounts: ['210987654321'],
      instances: [{ instance_id: 'i-0a1b2c3d4e5f60718', iam_role_name: 'web' }, { region: 'eu-west-1' }],
      principals: [{ type: 'user', name: 'alice' }],
      use_instance: 'i-0a1b2c3d4e5f60718',
    })
    expect(seeded.instances.map((i) => i.instance_id)[0]).toBe('i-0a1b2c3d4e5f60718')
    expect(seeded.principals[0]).toMatchObject({ name: 'alice' })
    expect(await (await doppel.fetch('http://169.254.169.254/latest/meta-data/instance-id')).text()).toBe('i-0a1b2c3d4e5f60718')
  })

  it('is all or nothing: a bad entry removes what the fixture added and names the entry', () => {
    cloud.createPrincipal({ type: 'user', name: 'bob' })
    const before = JSON.stringify(doppel.store.snapshot())
    expect(() =>
      seedCloud(doppel, {
        instances: [{ iam_role_name: 'web' }],
        principals: [{ type: 'user', name: 'alice' }, { type: 'user', name: 'bob' }],
      }),
    ).toThrow(error('EntityAlreadyExists', 409, 'principals[1]: User with name bob already exists.'))
    expect(JSON.stringify(doppel.store.snapshot())).toBe(before)
    expect(() => seedCloud(doppel, { instances: [{ instance_id: 'nope' }] })).toThrow(error('InvalidInput', 400))
    expect(() => seedCloud(doppel, { machines: [] } as never)).toThrow(error('InvalidInput', 400, 'Failed to load the cloud fixture: unknown field "machines"'))
    expect(JSON.stringify(doppel.store.snapshot())).toBe(before)
  })
})
