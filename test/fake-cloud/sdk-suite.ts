import { DescribeInstancesCommand, EC2Client, type DescribeInstancesCommandInput } from '@aws-sdk/client-ec2'
import {
  CreateAccessKeyCommand,
  DeleteAccessKeyCommand,
  GetInstanceProfileCommand,
  GetRoleCommand,
  GetUserCommand,
  IAMClient,
  ListAccessKeysCommand,
} from '@aws-sdk/client-iam'
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts'
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Doppel } from '../../src/features/doppel/index.ts'
import { getFakeCloud, type Principal } from '../../src/services/fake-cloud/index.ts'

/** Where the SDK clients of one face are pointed; `undefined` = the real AWS hostnames (MSW). */
export interface SdkFace {
  doppel: Doppel
  endpoints: () => { sts?: string; ec2?: string; iam?: string }
  /** A credential provider reading the instance's metadata service the way SDK v3 does on EC2. */
  instanceMetadata: (instanceId: string) => Promise<AwsCredentialIdentityProvider>
}

type Credentials = AwsCredentialIdentity | AwsCredentialIdentityProvider
const keys = (p: Principal): AwsCredentialIdentity => ({
  accessKeyId: p.access_key_id,
  secretAccessKey: p.secret_access_key,
  ...(p.session_token !== undefined && { sessionToken: p.session_token }),
})

/** The same behaviour through real SDK v3 clients, whichever face (MSW or a node:http server) carries them. */
export function sdkSuite(face: SdkFace): void {
  const { doppel } = face
  const cloud = getFakeCloud(doppel)
  // Clients sign with the wall clock; tests that move the emulator clock create clients after the move.
  const common = () => ({ maxAttempts: 1, systemClockOffset: doppel.clock.nowMs() - Date.now() })
  const sts = (credentials: Credentials, region = 'us-east-1') => new STSClient({ region, credentials, endpoint: face.endpoints().sts, ...common() })
  const ec2 = (credentials: Credentials, region = 'eu-west-1') => new EC2Client({ region, credentials, endpoint: face.endpoints().ec2, ...common() })
  const iam = (credentials: Credentials) => new IAMClient({ region: 'us-east-1', credentials, endpoint: face.endpoints().iam, ...common() })

  beforeEach(() => doppel.reset())

  describe('STS', () => {
    it('GetCallerIdentity names an IAM user by its ARN (path kept) and unique id', async () => {
      const alice = cloud.createPrincipal({ type: 'user', name: 'alice', path: '/division/' })
      const out = await sts(keys(alice)).send(new GetCallerIdentityCommand({}))
      expect(out).toMatchObject({ Arn: 'arn:aws:iam::123456789012:user/division/alice', UserId: alice.unique_id, Account: '123456789012' })
      expect(alice.unique_id).toMatch(/^AIDA[A-Z2-7]{17}$/)
    })

    it('AssumeRole gives session credentials that STS names as the assumed role', async () => {
      const alice = cloud.createPrincipal({ type: 'user', name: 'alice' })
      const role = cloud.createPrincipal({ type: 'role', name: 'deployer', account_id: '210987654321', path: '/ops/' })
      const assumed = await sts(keys(alice)).send(
        new AssumeRoleCommand({ RoleArn: role.arn, RoleSessionName: 'sess1', DurationSeconds: 900 }),
      )
      expect(assumed.AssumedRoleUser).toEqual({
        Arn: 'arn:aws:sts::210987654321:assumed-role/deployer/sess1',
        AssumedRoleId: `${role.unique_id}:sess1`,
      })
      expect(assumed.Credentials!.AccessKeyId).toMatch(/^ASIA[A-Z2-7]{16}$/)
      const session = {
        accessKeyId: assumed.Credentials!.AccessKeyId!,
        secretAccessKey: assumed.Credentials!.SecretAccessKey!,
        sessionToken: assumed.Credentials!.SessionToken!,
      }
      const me = await sts(session, 'eu-west-1').send(new GetCallerIdentityCommand({}))
      expect(me).toMatchObject({ Arn: assumed.AssumedRoleUser!.Arn, UserId: `${role.unique_id}:sess1`, Account: '210987654321' })
    })

    it('AssumeRole of a missing role is AccessDenied with the caller and role ARNs', async () => {
      const alice = cloud.createPrincipal({ type: 'user', name: 'alice' })
      const arn = 'arn:aws:iam::123456789012:role/nobody'
      const error = await sts(keys(alice))
        .send(new AssumeRoleCommand({ RoleArn: arn, RoleSessionName: 'sess1' }))
        .catch((e: unknown) => e)
      expect(error).toMatchObject({
        name: 'AccessDenied',
        message: `User: ${alice.arn} is not authorized to perform: sts:AssumeRole on resource: ${arn}`,
        $metadata: { httpStatusCode: 403 },
      })
    })

    it('refuses a wrong secret, an unknown key and a stale signature with the AWS codes', async () => {
      const alice = cloud.createPrincipal({ type: 'user', name: 'alice' })
      const wrong = await sts({ ...keys(alice), secretAccessKey: 'x'.repeat(40) })
        .send(new GetCallerIdentityCommand({}))
        .catch((e: unknown) => e)
      expect(wrong).toMatchObject({ name: 'SignatureDoesNotMatch', $metadata: { httpStatusCode: 403 } })
      const unknown = await sts({ accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'x'.repeat(40) })
        .send(new GetCallerIdentityCommand({}))
        .catch((e: unknown) => e)
      expect(unknown).toMatchObject({
        name: 'InvalidClientTokenId',
        message: 'The security token included in the request is invalid.',
        $metadata: { httpStatusCode: 403 },
      })
      const client = sts(keys(alice))
      doppel.clock.advance('16m')
      const stale = await client
        .send(new GetCallerIdentityCommand({}))
        .catch((e: unknown) => e)
      expect(stale).toMatchObject({ name: 'SignatureDoesNotMatch', $metadata: { httpStatusCode: 403 } })
      expect((stale as Error).message).toMatch(/^Signature expired: \d{8}T\d{6}Z is now earlier than \d{8}T\d{6}Z \(\d{8}T\d{6}Z - 15 min\.\)$/)
    })
  })

  describe('EC2', () => {
    it('DescribeInstances by id and by instance-id filter returns what the auth service reads', async () => {
      const instance = cloud.createInstance({
        region: 'eu-west-1',
        iam_role_name: 'web',
        tags: { Name: 'web-1', team: 'a&b <c>' },
        pending_time: '2024-03-05T09:41:27Z',
      })
      const client = ec2(cloud.defaultServiceCredentials())
      for (const input of [
        { InstanceIds: [instance.instance_id] },
        { Filters: [{ Name: 'instance-id', Values: [instance.instance_id] }] },
      ]) {
        const out = await client.send(new DescribeInstancesCommand(input))
        expect(out.Reservations).toHaveLength(1)
        expect(out.Reservations![0]!.OwnerId).toBe('123456789012')
        const described = out.Reservations![0]!.Instances![0]!
        expect(described).toMatchObject({
          InstanceId: instance.instance_id,
          ImageId: instance.ami_id,
          SubnetId: instance.subnet_id,
          VpcId: instance.vpc_id,
          State: { Code: 16, Name: 'running' },
          IamInstanceProfile: { Arn: 'arn:aws:iam::123456789012:instance-profile/web', Id: instance.instance_profile_id },
          Placement: { AvailabilityZone: instance.availability_zone },
          PrivateIpAddress: instance.private_ip,
        })
        expect(described.LaunchTime).toEqual(new Date('2024-03-05T09:41:27Z'))
        expect(described.Tags).toEqual([
          { Key: 'Name', Value: 'web-1' },
          { Key: 'team', Value: 'a&b <c>' },
        ])
      }
    })

    it('the public address and key pair: PublicIpAddress, PublicDnsName and KeyName while running; filters on them', async () => {
      const keyed = cloud.createInstance({ region: 'eu-west-1', key_name: 'deploy' })
      const bare = cloud.createInstance({ region: 'eu-west-1', public_ip: null })
      const client = ec2(cloud.defaultServiceCredentials())
      const read = async (id: string) =>
        (await client.send(new DescribeInstancesCommand({ InstanceIds: [id] }))).Reservations![0]!.Instances![0]!
      expect(await read(keyed.instance_id)).toMatchObject({
        PublicIpAddress: keyed.public_ip,
        PublicDnsName: `ec2-${keyed.public_ip!.replace(/\./g, '-')}.eu-west-1.compute.amazonaws.com`,
        KeyName: 'deploy',
      })
      const none = await read(bare.instance_id)
      expect([none.PublicIpAddress, none.PublicDnsName, none.KeyName]).toEqual([undefined, '', undefined])

      const ids = async (name: string, value: string) =>
        ((await client.send(new DescribeInstancesCommand({ Filters: [{ Name: name, Values: [value] }] }))).Reservations ?? []).map((r) => r.Instances![0]!.InstanceId)
      expect(await ids('ip-address', keyed.public_ip!)).toEqual([keyed.instance_id])
      expect(await ids('key-name', 'dep*')).toEqual([keyed.instance_id])
      expect(await ids('dns-name', keyed.public_dns_name!)).toEqual([keyed.instance_id])

      // A stopped instance has no public address; it has the same one again once started.
      cloud.setInstanceState(keyed.instance_id, 'stopped')
      const stopped = await read(keyed.instance_id)
      expect([stopped.PublicIpAddress, stopped.PublicDnsName, stopped.KeyName]).toEqual([undefined, '', 'deploy'])
      expect(await ids('ip-address', keyed.public_ip!)).toEqual([])
      cloud.setInstanceState(keyed.instance_id, 'running')
      expect((await read(keyed.instance_id)).PublicIpAddress).toBe(keyed.public_ip)
    })

    it('filters (with wildcards), pages with MaxResults/NextToken, and answers DryRun with 412', async () => {
      const made = Array.from({ length: 7 }, (_, i) =>
        cloud.createInstance({ region: 'eu-west-1', tags: { team: i % 2 === 0 ? 'blue' : 'green' }, state: i === 0 ? 'stopped' : 'running' }),
      )
      cloud.createInstance({ region: 'us-west-2', tags: { team: 'blue' } })
      const client = ec2(cloud.defaultServiceCredentials())
      const ids = async (input: DescribeInstancesCommandInput) =>
        ((await client.send(new DescribeInstancesCommand(input))).Reservations ?? []).map((r) => r.Instances![0]!.InstanceId)
      expect(await ids({ Filters: [{ Name: 'tag:team', Values: ['bl*'] }] })).toEqual(made.filter((_, i) => i % 2 === 0).map((i) => i.instance_id))
      expect(await ids({ Filters: [{ Name: 'instance-state-name', Values: ['stopped'] }] })).toEqual([made[0]!.instance_id])
      expect(await ids({ Filters: [{ Name: 'tag:team', Values: ['blue'] }, { Name: 'instance-state-name', Values: ['running'] }] })).toHaveLength(3)
      expect(await ids({ Filters: [{ Name: 'instance-id', Values: ['i-0a1b2c3d4e5f60719'] }] })).toEqual([])

      const first = await client.send(new DescribeInstancesCommand({ MaxResults: 5 }))
      expect(first.Reservations).toHaveLength(5)
      const second = await client.send(new DescribeInstancesCommand({ MaxResults: 5, NextToken: first.NextToken }))
      expect(second.Reservations).toHaveLength(2)
      expect(second.NextToken).toBeUndefined()

      const dryRun = await client.send(new DescribeInstancesCommand({ DryRun: true })).catch((e: unknown) => e)
      expect(dryRun).toMatchObject({ name: 'DryRunOperation', message: 'Request would have succeeded, but DryRun flag is set.', $metadata: { httpStatusCode: 412 } })
      const mixed = await client.send(new DescribeInstancesCommand({ MaxResults: 5, InstanceIds: [made[1]!.instance_id] })).catch((e: unknown) => e)
      expect(mixed).toMatchObject({ name: 'InvalidParameterCombination', message: 'The parameter instancesSet cannot be used with the parameter maxResults' })
      const badFilter = await client.send(new DescribeInstancesCommand({ Filters: [{ Name: 'colour', Values: ['red'] }] })).catch((e: unknown) => e)
      expect(badFilter).toMatchObject({ name: 'InvalidParameterValue', message: "The filter 'colour' is invalid" })
    })

    it('reflects state changes, and a start moves LaunchTime to now', async () => {
      const instance = cloud.createInstance({ region: 'eu-west-1', pending_time: '2024-03-05T09:41:27Z' })
      const read = async () =>
        (await ec2(cloud.defaultServiceCredentials()).send(new DescribeInstancesCommand({ InstanceIds: [instance.instance_id] }))).Reservations![0]!
          .Instances![0]!
      cloud.setInstanceState(instance.instance_id, 'stopped')
      expect((await read()).State).toEqual({ Code: 80, Name: 'stopped' })
      doppel.clock.advance('1h')
      const before = Math.floor(doppel.clock.nowMs() / 1000) * 1000
      const { pending_time } = cloud.setInstanceState(instance.instance_id, 'running')
      const started = await read()
      expect(started.State).toEqual({ Code: 16, Name: 'running' })
      expect(started.LaunchTime).toEqual(new Date(pending_time))
      expect(started.LaunchTime!.getTime()).toBeGreaterThanOrEqual(before)
      expect(started.LaunchTime!.getTime()).toBeLessThanOrEqual(doppel.clock.nowMs())
    })

    it('an unknown id, an id in another account or region, and a malformed id fail as EC2 does', async () => {
      const elsewhere = cloud.createInstance({ region: 'eu-west-1', account_id: '210987654321' })
      const otherRegion = cloud.createInstance({ region: 'us-west-2' })
      const client = ec2(cloud.defaultServiceCredentials())
      for (const id of ['i-0a1b2c3d4e5f60719', elsewhere.instance_id, otherRegion.instance_id]) {
        const error = await client.send(new DescribeInstancesCommand({ InstanceIds: [id] })).catch((e: unknown) => e)
        expect(error).toMatchObject({
          name: 'InvalidInstanceID.NotFound',
          message: `The instance ID '${id}' does not exist`,
          $metadata: { httpStatusCode: 400 },
        })
      }
      const malformed = await client.send(new DescribeInstancesCommand({ InstanceIds: ['i-xyz'] })).catch((e: unknown) => e)
      expect(malformed).toMatchObject({ name: 'InvalidInstanceID.Malformed', message: 'Invalid id: "i-xyz"' })
      const unknownKey = await ec2({ accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'x'.repeat(40) })
        .send(new DescribeInstancesCommand({}))
        .catch((e: unknown) => e)
      expect(unknownKey).toMatchObject({
        name: 'AuthFailure',
        message: 'AWS was not able to validate the provided access credentials',
        $metadata: { httpStatusCode: 401 },
      })
    })
  })

  describe('IAM', () => {
    it('GetUser, GetRole and GetInstanceProfile return the same unique ids as STS', async () => {
      const alice = cloud.createPrincipal({ type: 'user', name: 'alice' })
      const instance = cloud.createInstance({ iam_role_name: 'web' })
      const client = iam(keys(alice))
      expect((await client.send(new GetUserCommand({}))).User).toMatchObject({ UserName: 'alice', UserId: alice.unique_id, Arn: alice.arn, Path: '/' })
      const role = (await client.send(new GetRoleCommand({ RoleName: 'web' }))).Role!
      expect(role).toMatchObject({ RoleName: 'web', Arn: instance.iam_role_arn, MaxSessionDuration: 3600 })
      expect(role.RoleId).toMatch(/^AROA[A-Z2-7]{17}$/)
      expect(decodeURIComponent(role.AssumeRolePolicyDocument!)).toContain('sts:AssumeRole')
      const profile = (await client.send(new GetInstanceProfileCommand({ InstanceProfileName: 'web' }))).InstanceProfile!
      expect(profile).toMatchObject({ InstanceProfileName: 'web', Arn: instance.instance_profile_arn, InstanceProfileId: instance.instance_profile_id })
      expect(profile.Roles!.map((r) => r.RoleId)).toEqual([role.RoleId])
      const missing = await client.send(new GetRoleCommand({ RoleName: 'nope' })).catch((e: unknown) => e)
      expect(missing).toMatchObject({ name: 'NoSuchEntityException', message: 'The role with name nope cannot be found.', $metadata: { httpStatusCode: 404 } })
    })

    it('rotates a key as the auth service does: create (limit two), use at once, delete the old one with itself', async () => {
      const alice = cloud.createPrincipal({ type: 'user', name: 'alice' })
      const created = (await iam(keys(alice)).send(new CreateAccessKeyCommand({ UserName: 'alice' }))).AccessKey!
      expect(created).toMatchObject({ UserName: 'alice', Status: 'Active' })
      const fresh = { accessKeyId: created.AccessKeyId!, secretAccessKey: created.SecretAccessKey! }
      expect((await sts(fresh).send(new GetCallerIdentityCommand({}))).Arn).toBe(alice.arn)
      const listed = await iam(fresh).send(new ListAccessKeysCommand({}))
      expect(listed.AccessKeyMetadata!.map((k) => k.AccessKeyId).sort()).toEqual([alice.access_key_id, created.AccessKeyId].sort())
      const third = await iam(fresh).send(new CreateAccessKeyCommand({})).catch((e: unknown) => e)
      expect(third).toMatchObject({ name: 'LimitExceededException', message: 'Cannot exceed quota for AccessKeysPerUser: 2', $metadata: { httpStatusCode: 409 } })
      await iam(keys(alice)).send(new DeleteAccessKeyCommand({ AccessKeyId: alice.access_key_id, UserName: 'alice' }))
      const gone = await sts(keys(alice)).send(new GetCallerIdentityCommand({})).catch((e: unknown) => e)
      expect(gone).toMatchObject({ name: 'InvalidClientTokenId', $metadata: { httpStatusCode: 403 } })
      expect((await iam(fresh).send(new ListAccessKeysCommand({}))).AccessKeyMetadata).toHaveLength(1)
    })
  })

  describe('instance metadata credentials', () => {
    it('the SDK IMDS provider gets role credentials that STS names assumed-role/<role>/<instance-id>', async () => {
      const instance = cloud.createInstance({ iam_role_name: 'web' })
      const provider = await face.instanceMetadata(instance.instance_id)
      const credentials = await provider()
      expect(credentials.accessKeyId).toMatch(/^ASIA/)
      expect(credentials.sessionToken).toBeTruthy()
      const me = await sts(credentials).send(new GetCallerIdentityCommand({}))
      const roleId = cloud.getRole(cloud.defaultServiceCredentials(), 'web').id
      expect(me).toMatchObject({
        Arn: `arn:aws:sts::123456789012:assumed-role/web/${instance.instance_id}`,
        UserId: `${roleId}:${instance.instance_id}`,
        Account: '123456789012',
      })
      const described = await ec2(provider, instance.region).send(new DescribeInstancesCommand({ InstanceIds: [instance.instance_id] }))
      expect(described.Reservations![0]!.Instances![0]!.InstanceId).toBe(instance.instance_id)
    })
  })
}
