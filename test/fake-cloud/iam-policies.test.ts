import { DescribeInstancesCommand, EC2Client } from '@aws-sdk/client-ec2'
import { CreateAccessKeyCommand, GetRoleCommand, GetUserCommand, IAMClient } from '@aws-sdk/client-iam'
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { getFakeCloud, type Principal, type PrincipalInput } from '../../src/services/fake-cloud/index.ts'
import { startMsw } from './helpers.ts'

// IAM permissions and trust, opt-in per principal (docs/reference/fake-cloud.md §4.4 AccessDenied), through real SDK v3 clients.
const doppel = createDoppel({ seed: 21 })
const cloud = getFakeCloud(doppel)
let msw: ReturnType<typeof startMsw>
beforeAll(() => {
  msw = startMsw(doppel)
})
afterAll(() => msw.close())
beforeEach(() => doppel.reset())

const keys = (p: Principal) => ({
  accessKeyId: p.access_key_id,
  secretAccessKey: p.secret_access_key,
  ...(p.session_token !== undefined && { sessionToken: p.session_token }),
})
const common = { region: 'us-east-1', maxAttempts: 1 }
const fail = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as { name: string; message: string })

describe('identity policies', () => {
  const reader: PrincipalInput = {
    type: 'user',
    name: 'reader',
    policies: [
      { Statement: [{ Effect: 'Allow', Action: ['iam:Get*', 'sts:AssumeRole'], Resource: '*' }] },
      { Statement: { Effect: 'Deny', Action: 'iam:GetRole', Resource: 'arn:aws:iam::123456789012:role/secret-*' } },
    ],
  }

  it('allows what a statement allows; anything else is AccessDenied naming the caller, action and resource', async () => {
    const user = cloud.createPrincipal(reader)
    const iam = new IAMClient({ ...common, credentials: keys(user) })
    expect((await iam.send(new GetUserCommand({}))).User?.Arn).toBe(user.arn)
    const error = await fail(iam.send(new CreateAccessKeyCommand({ UserName: 'reader' })))
    expect(error).toMatchObject({
      name: 'AccessDenied',
      message: `User: ${user.arn} is not authorized to perform: iam:CreateAccessKey on resource: ${user.arn}`,
    })
  })

  it('an explicit Deny wins over an Allow, and says so', async () => {
    const user = cloud.createPrincipal(reader)
    cloud.createPrincipal({ type: 'role', name: 'secret-app' })
    cloud.createPrincipal({ type: 'role', name: 'open-app' })
    const iam = new IAMClient({ ...common, credentials: keys(user) })
    expect((await iam.send(new GetRoleCommand({ RoleName: 'open-app' }))).Role?.RoleName).toBe('open-app')
    const error = await fail(iam.send(new GetRoleCommand({ RoleName: 'secret-app' })))
    expect(error?.message).toBe(
      `User: ${user.arn} is not authorized to perform: iam:GetRole on resource: arn:aws:iam::123456789012:role/secret-app with an explicit deny in an identity-based policy`,
    )
  })

  it('EC2 refuses DescribeInstances without ec2 permission with UnauthorizedOperation', async () => {
    const user = cloud.createPrincipal(reader)
    const error = await fail(new EC2Client({ ...common, credentials: keys(user) }).send(new DescribeInstancesCommand({})))
    expect(error).toMatchObject({
      name: 'UnauthorizedOperation',
      message: `You are not authorized to perform this operation. User: ${user.arn} is not authorized to perform: ec2:DescribeInstances`,
    })
  })

  it('an assumed-role session acts with its role policies', async () => {
    const role = cloud.createPrincipal({ type: 'role', name: 'ec2-only', policies: [{ Statement: [{ Effect: 'Allow', Action: 'ec2:Describe*' }] }] })
    await new EC2Client({ ...common, credentials: keys(role) }).send(new DescribeInstancesCommand({}))
    const error = await fail(new IAMClient({ ...common, credentials: keys(role) }).send(new GetRoleCommand({ RoleName: 'ec2-only' })))
    expect(error?.name).toBe('AccessDenied')
  })

  it('refuses malformed policies at creation with a clear message', () => {
    expect(() => cloud.createPrincipal({ type: 'user', policies: [{ Statement: [{ Effect: 'Maybe', Action: '*' }] }] } as never)).toThrow(
      /"policies" must be a list of policy documents/,
    )
    expect(() => cloud.createPrincipal({ type: 'user', trust_policy: { Statement: [] } } as never)).toThrow(/"trust_policy"/)
  })
})

describe('trust policies', () => {
  it('a role requiring an ExternalId refuses a missing or wrong one and admits the right one', async () => {
    const caller = cloud.createPrincipal({ type: 'user', name: 'broker' })
    const role = cloud.createPrincipal({
      type: 'role',
      name: 'partner',
      account_id: '210987654321',
      trust_policy: {
        Statement: [
          { Effect: 'Allow', Action: 'sts:AssumeRole', Principal: { AWS: 'arn:aws:iam::123456789012:root' }, Condition: { StringEquals: { 'sts:ExternalId': 'ext-42' } } },
        ],
      },
    })
    const sts = new STSClient({ ...common, credentials: keys(caller) })
    const denied = `User: ${caller.arn} is not authorized to perform: sts:AssumeRole on resource: ${role.arn}`
    expect(await fail(sts.send(new AssumeRoleCommand({ RoleArn: role.arn, RoleSessionName: 's1' })))).toMatchObject({ name: 'AccessDenied', message: denied })
    expect((await fail(sts.send(new AssumeRoleCommand({ RoleArn: role.arn, RoleSessionName: 's1', ExternalId: 'nope' }))))?.message).toBe(denied)
    const ok = await sts.send(new AssumeRoleCommand({ RoleArn: role.arn, RoleSessionName: 's1', ExternalId: 'ext-42' }))
    expect(ok.AssumedRoleUser?.Arn).toBe('arn:aws:sts::210987654321:assumed-role/partner/s1')
  })

  it('a caller from an account the trust policy does not name is refused', async () => {
    const stranger = cloud.createPrincipal({ type: 'user', name: 'stranger', account_id: '111122223333' })
    const role = cloud.createPrincipal({
      type: 'role',
      name: 'internal',
      trust_policy: { Statement: { Effect: 'Allow', Action: 'sts:AssumeRole', Principal: { AWS: '123456789012' } } },
    })
    const error = await fail(new STSClient({ ...common, credentials: keys(stranger) }).send(new AssumeRoleCommand({ RoleArn: role.arn, RoleSessionName: 's1' })))
    expect(error?.name).toBe('AccessDenied')
  })
})
