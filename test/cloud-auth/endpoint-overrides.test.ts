import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { registerCloudListener } from '../../src/services/fake-cloud/index.ts'
import { aws4LoginData, createEc2Role, loginWorld, type LoginWorld } from './login-setup.ts'

// config/client's endpoint overrides are really used (docs/reference/cloud-auth.md §3.1, docs/reference/cloud-auth.md §3.2, docs/reference/cloud-auth.md §5 C, docs/reference/cloud-auth.md §9): a URL that is
// neither the fake cloud nor a registered doppel listener is a real HTTP request. Every server here is a
// throwaway node:http listener on 127.0.0.1.

interface Stub {
  url: string
  calls: { method: string; path: string; host: string; body: string; authorization: string }[]
  close(): Promise<void>
}

type Answer = (request: { method: string; path: string; body: string; raw: IncomingMessage }) => Promise<{ status: number; type?: string; body: string }>

const open: Server[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => new Promise<void>((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })))
})

async function stub(answer: Answer): Promise<Stub> {
  const calls: Stub['calls'] = []
  const server = createServer(async (req, res) => {
    const body = await new Promise<string>((resolve) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    })
    calls.push({ method: req.method!, path: req.url!, host: req.headers.host!, body, authorization: req.headers.authorization ?? '' })
    const out = await answer({ method: req.method!, path: req.url!, body, raw: req })
    res.writeHead(out.status, { 'Content-Type': out.type ?? 'text/xml' })
    res.end(out.body)
  })
  open.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, calls, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

/** A port nothing listens on. */
async function closedPort(): Promise<string> {
  const dead = await stub(async () => ({ status: 200, body: '' }))
  await dead.close()
  return dead.url
}

/** A listener of the same emulator's fake cloud (as `--cloud-port` serves it), not registered: reached over HTTP. */
function cloudListener(world: LoginWorld): Promise<Stub> {
  return stub(async ({ method, path, body, raw }) => {
    const headers = new Headers()
    for (let i = 0; i < raw.rawHeaders.length; i += 2) headers.append(raw.rawHeaders[i]!, raw.rawHeaders[i + 1]!)
    const request = new Request(`http://${raw.headers.host}${path}`, { method, headers, ...(method === 'POST' && { body }) })
    const response = await world.doppel.handle(request, { surface: 'cloud' })
    return { status: response.status, type: response.headers.get('content-type') ?? undefined, body: await response.text() }
  })
}

const IDENTITY = (arn: string) =>
  `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult><Arn>${arn}</Arn>` +
  '<UserId>AIDASTUBSTUBSTUBSTUB1</UserId><Account>123456789012</Account></GetCallerIdentityResult>' +
  '<ResponseMetadata><RequestId>7f4fc40c-853a-11e6-8848-8d035d01eb87</RequestId></ResponseMetadata></GetCallerIdentityResponse>'

describe('sts_endpoint: the iam login forwards the signed request there', () => {
  async function iamSetup() {
    const world = loginWorld()
    const alice = world.cloud.createPrincipal({ type: 'user', name: 'alice' })
    const stubArn = 'arn:aws:iam::123456789012:user/stubbed'
    const reply = await world.api('POST', 'role/stubbed', { auth_type: 'iam', resolve_aws_unique_ids: false, bound_iam_principal_arn: stubArn })
    expect(reply.status).toBe(204)
    return { world, alice, stubArn }
  }

  it('a user STS stub is called with the replayed request (path //, the client host) and its answer logs in', async () => {
    const { world, alice, stubArn } = await iamSetup()
    const sts = await stub(async () => ({ status: 200, body: IDENTITY(stubArn) }))
    await world.api('POST', 'config/client', { sts_endpoint: sts.url, sts_region: 'us-east-1' })
    const reply = await world.login({ role: 'stubbed', ...aws4LoginData(world, alice) })
    expect(reply.status).toBe(200)
    expect(reply.body.auth.metadata.account_id).toBe('123456789012')
    expect(sts.calls).toHaveLength(1)
    expect(sts.calls[0]).toMatchObject({ method: 'POST', path: '//', host: 'sts.amazonaws.com', body: 'Action=GetCallerIdentity&Version=2011-06-15' })
  })

  it('an unreachable sts_endpoint fails the login with the real error text', async () => {
    const { world, alice } = await iamSetup()
    const dead = await closedPort()
    await world.api('POST', 'config/client', { sts_endpoint: dead, max_retries: 0 })
    const reply = await world.login({ role: 'stubbed', ...aws4LoginData(world, alice) })
    expect(reply).toEqual({ status: 400, body: { errors: [`error making upstream request: error making request: POST ${dead}// giving up after 1 attempt(s)`] } })
  })

  it('retries 5xx up to max_retries, then reads the answer; non-XML and non-200 answers are refused as the real service does', async () => {
    const { world, alice, stubArn } = await iamSetup()
    let n = 0
    const sts = await stub(async () => (++n === 1 ? { status: 503, body: 'busy' } : { status: 200, body: IDENTITY(stubArn) }))
    await world.api('POST', 'config/client', { sts_endpoint: sts.url, max_retries: 1 })
    expect((await world.login({ role: 'stubbed', ...aws4LoginData(world, alice) })).status).toBe(200)
    expect(sts.calls).toHaveLength(2)

    const json = await stub(async () => ({ status: 200, type: 'application/json', body: '{}' }))
    await world.api('POST', 'config/client', { sts_endpoint: json.url })
    expect((await world.login({ role: 'stubbed', ...aws4LoginData(world, alice) })).body.errors).toEqual([
      'error making upstream request: body of GetCallerIdentity is invalid',
    ])
    const denied = await stub(async () => ({ status: 403, body: '<ErrorResponse/>' }))
    await world.api('POST', 'config/client', { sts_endpoint: denied.url })
    expect((await world.login({ role: 'stubbed', ...aws4LoginData(world, alice) })).body.errors).toEqual([
      'error making upstream request: received error code 403 from STS: <ErrorResponse/>',
    ])
  })

  it('an answer over the size cap is not read', async () => {
    const { world, alice } = await iamSetup()
    const huge = await stub(async () => ({ status: 200, body: `<GetCallerIdentityResponse>${'x'.repeat(2 * 1024 * 1024)}` }))
    await world.api('POST', 'config/client', { sts_endpoint: huge.url, max_retries: 0 })
    const reply = await world.login({ role: 'stubbed', ...aws4LoginData(world, alice) })
    expect(reply.body.errors[0]).toMatch(/^error making upstream request: error making request: POST http:\/\/127\.0\.0\.1:\d+\/\/ giving up after 1 attempt\(s\)$/)
  })

  it("doppel's own cloud listener, once registered, is answered in process (no request reaches it)", async () => {
    const world = loginWorld()
    const alice = world.cloud.createPrincipal({ type: 'user', name: 'alice' })
    await world.api('POST', 'role/alice', { auth_type: 'iam', bound_iam_principal_arn: alice.arn })
    const listener = await cloudListener(world)
    await world.api('POST', 'config/client', { sts_endpoint: listener.url })
    expect((await world.login({ role: 'alice', ...aws4LoginData(world, alice) })).status).toBe(200)
    expect(listener.calls).toHaveLength(1)
    registerCloudListener(world.doppel, listener.url)
    expect((await world.login({ role: 'alice', ...aws4LoginData(world, alice) })).status).toBe(200)
    expect(listener.calls).toHaveLength(1)
  })
})

describe('endpoint: ec2 login calls DescribeInstances there', () => {
  it('over real HTTP to a fake-cloud listener (signed, verified, XML read back), and fails when unreachable', async () => {
    const world = loginWorld()
    const instance = world.cloud.createInstance({ ami_id: 'ami-0abc1234', region: 'eu-west-1' })
    await createEc2Role(world, 'web', instance)
    const listener = await cloudListener(world)
    await world.api('POST', 'config/client', { endpoint: listener.url })
    const pkcs7 = world.cloud.identityDocument(instance.instance_id, 'rsa2048').replace(/\n/g, '')
    const ok = await world.login({ role: 'web', pkcs7, nonce: 'n-1' })
    expect(ok.status).toBe(200)
    expect(listener.calls.map((c) => c.body)).toEqual([`Action=DescribeInstances&Version=2016-11-15&InstanceId.1=${instance.instance_id}`])

    const dead = await closedPort()
    await world.api('POST', 'config/client', { endpoint: dead, max_retries: 0 })
    const failed = await world.login({ role: 'web', pkcs7, nonce: 'n-1' })
    expect(failed.body.errors).toEqual([
      `failed to verify instance ID: error fetching description for instance ID "${instance.instance_id}": ` +
        `RequestError: send request failed\ncaused by: Post "${dead}/": dial tcp ${dead.slice(7)}: connect: connection refused`,
    ])
  })

  it("a provider error answer is shown as the SDK shows it", async () => {
    const world = loginWorld()
    const instance = world.cloud.createInstance({ ami_id: 'ami-0abc1234' })
    await createEc2Role(world, 'web', instance)
    const ec2 = await stub(async () => ({
      status: 401,
      body: '<Response><Errors><Error><Code>AuthFailure</Code><Message>AWS was not able to validate the provided access credentials</Message></Error></Errors><RequestID>5b7c9d2e-8f41-4a6b-9c3d-0e1f2a3b4c5d</RequestID></Response>',
    }))
    await world.api('POST', 'config/client', { endpoint: ec2.url, max_retries: 0 })
    const pkcs7 = world.cloud.identityDocument(instance.instance_id, 'rsa2048').replace(/\n/g, '')
    const failed = await world.login({ role: 'web', pkcs7 })
    expect(failed.body.errors[0]).toMatch(/: AuthFailure: AWS was not able to validate the provided access credentials\n\tstatus code: 401, request id: 5b7c9d2e-8f41-4a6b-9c3d-0e1f2a3b4c5d$/)
    expect(ec2.calls).toHaveLength(1)
  })

  it("a stub's DescribeInstances answer without reservations, instances or state gets the real service's texts", async () => {
    const world = loginWorld()
    const instance = world.cloud.createInstance({ ami_id: 'ami-0abc1234' })
    await createEc2Role(world, 'web', instance)
    const item = (inner: string) => `<item><instanceId>${instance.instance_id}</instanceId>${inner}</item>`
    const answers: [string, string][] = [
      ['<reservationSet/>', 'no reservations found in instance description'],
      ['<reservationSet><item><ownerId>1</ownerId><instancesSet/></item></reservationSet>', 'no instance details found in reservations'],
      [`<reservationSet><item><instancesSet>${item('')}</instancesSet></item></reservationSet>`, 'instance state in instance description is nil'],
      [
        '<reservationSet><item><instancesSet><item><instanceId>i-0other</instanceId></item></instancesSet></item></reservationSet>',
        'expected instance ID not matching the instance ID in the instance description',
      ],
    ]
    let next = ''
    const ec2 = await stub(async () => ({ status: 200, body: `<DescribeInstancesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>r-1</requestId>${next}</DescribeInstancesResponse>` }))
    await world.api('POST', 'config/client', { endpoint: ec2.url, max_retries: 0 })
    const pkcs7 = world.cloud.identityDocument(instance.instance_id, 'rsa2048').replace(/\n/g, '')
    for (const [answer, message] of answers) {
      next = answer
      expect(await world.login({ role: 'web', pkcs7 })).toEqual({ status: 400, body: { errors: [`failed to verify instance ID: ${message}`] } })
    }
  })
})

describe('a remote EC2 description without the attributes a role binds', () => {
  // The rows of deviations.ts the fake cloud itself cannot produce (its instances always have them), reached
  // through an EC2 endpoint override: Vault's 500 in the vault profile, 400 in the service profile.
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['no image id', { bound_ami_id: 'ami-1' }, '', 'AMI ID in the instance description is nil'],
    ['no subnet id', { bound_subnet_id: 'subnet-1' }, '<imageId>ami-1</imageId>', 'subnet ID in the instance description is nil'],
    ['no VPC id', { bound_vpc_id: 'vpc-1' }, '<imageId>ami-1</imageId>', 'VPC ID in the instance description is nil'],
    [
      'an instance profile without an ARN',
      { bound_iam_instance_profile_arn: 'arn:aws:iam::123456789012:instance-profile/p' },
      '<imageId>ami-1</imageId><iamInstanceProfile><id>AIPA1</id></iamInstanceProfile>',
      'IAM instance profile ARN in the instance description is nil',
    ],
    [
      'an instance profile with an empty ARN, for a role ARN bound',
      { bound_iam_role_arn: 'arn:aws:iam::123456789012:role/r' },
      '<imageId>ami-1</imageId><iamInstanceProfile><arn></arn><id>AIPA1</id></iamInstanceProfile>',
      'IAM instance profile ARN in the instance description is empty',
    ],
    [
      'an instance profile ARN that does not parse, for a role ARN bound',
      { bound_iam_role_arn: 'arn:aws:iam::123456789012:role/r' },
      '<imageId>ami-1</imageId><iamInstanceProfile><arn>not-an-arn</arn><id>AIPA1</id></iamInstanceProfile>',
      'failed to parse IAM instance profile ARN "not-an-arn": ',
    ],
  ]
  for (const [what, bound, inner, message] of cases) {
    for (const [profile, status, text] of [
      ['service', 400, message],
      ['vault', 500, message],
    ] as const) {
      it(`${what}: ${status} in the ${profile} profile`, async () => {
        const world = loginWorld({ profile })
        const instance = world.cloud.createInstance({})
        expect((await world.api('POST', 'role/web', { auth_type: 'ec2', ...bound })).status).toBe(204)
        const item = `<item><instanceId>${instance.instance_id}</instanceId><instanceState><code>16</code><name>running</name></instanceState><launchTime>2026-03-01T11:00:00.000Z</launchTime>${inner}</item>`
        const ec2 = await stub(async () => ({
          status: 200,
          body: `<DescribeInstancesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>r-1</requestId><reservationSet><item><ownerId>123456789012</ownerId><instancesSet>${item}</instancesSet></item></reservationSet></DescribeInstancesResponse>`,
        }))
        await world.api('POST', 'config/client', { endpoint: ec2.url, max_retries: 0 })
        const reply = await world.login({ role: 'web', pkcs7: world.cloud.identityDocument(instance.instance_id, 'rsa2048').replace(/\n/g, '') })
        expect(reply.status).toBe(status)
        expect(reply.body.errors[0]).toContain(text)
      })
    }
  }
})

describe('iam_endpoint: principal resolution and rotate-root', () => {
  it('role write resolves unique ids through it, and fails when it is unreachable', async () => {
    const world = loginWorld()
    const alice = world.cloud.createPrincipal({ type: 'user', name: 'alice' })
    const listener = await cloudListener(world)
    await world.api('POST', 'config/client', { iam_endpoint: listener.url })
    expect((await world.api('POST', 'role/alice', { auth_type: 'iam', bound_iam_principal_arn: alice.arn })).status).toBe(204)
    expect((await world.api('GET', 'role/alice')).body.data.bound_iam_principal_id).toEqual([alice.unique_id])
    expect(listener.calls.map((c) => c.body)).toEqual(['Action=GetUser&Version=2010-05-08&UserName=alice'])

    const dead = await closedPort()
    await world.api('POST', 'config/client', { iam_endpoint: dead, max_retries: 0 })
    const failed = await world.api('POST', 'role/bob', { auth_type: 'iam', bound_iam_principal_arn: alice.arn })
    expect(failed.body.errors).toEqual([
      `unable to resolve ARN "${alice.arn}" to internal ID: RequestError: send request failed\ncaused by: Post "${dead}/": dial tcp ${dead.slice(7)}: connect: connection refused`,
    ])
  })

  it('rotate-root calls GetUser, CreateAccessKey and DeleteAccessKey there; unreachable is "error calling GetUser"', async () => {
    const world = loginWorld()
    const svc = world.cloud.createPrincipal({ type: 'user', name: 'vault-svc' })
    const listener = await cloudListener(world)
    await world.api('POST', 'config/client', { access_key: svc.access_key_id, secret_key: svc.secret_access_key, iam_endpoint: listener.url })
    const rotated = await world.api('POST', 'config/rotate-root')
    expect(rotated.status).toBe(200)
    expect(listener.calls.map((c) => new URLSearchParams(c.body).get('Action'))).toEqual(['GetUser', 'CreateAccessKey', 'DeleteAccessKey'])

    const dead = await closedPort()
    await world.api('POST', 'config/client', { iam_endpoint: dead, max_retries: 0 })
    const failed = await world.api('POST', 'config/rotate-root')
    expect(failed.status).toBe(400)
    expect(failed.body.errors[0]).toBe(`error calling GetUser: RequestError: send request failed\ncaused by: Post "${dead}/": dial tcp ${dead.slice(7)}: connect: connection refused`)
  })
})

describe('who may point the service somewhere', () => {
  it('only a management token writes config/client: a login token is refused and nothing is stored', async () => {
    const world = loginWorld()
    const alice = world.cloud.createPrincipal({ type: 'user', name: 'alice' })
    await world.api('POST', 'role/alice', { auth_type: 'iam', bound_iam_principal_arn: alice.arn, token_policies: 'admin' })
    const token = (await world.login({ role: 'alice', ...aws4LoginData(world, alice) })).body.auth.client_token as string
    const response = await world.doppel.fetch('http://doppel.test/v1/auth/cloud/config/client', {
      method: 'POST',
      headers: { 'X-Service-Token': token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ sts_endpoint: 'http://127.0.0.1:1' }),
    })
    expect(response.status).toBe(403)
    expect((await world.api('GET', 'config/client')).status).toBe(404)
  })
})

describe("sts_endpoint: the service's own STS calls (default account, config/sts)", () => {
  it('GetCallerIdentity and AssumeRole go there, signed for sts_region', async () => {
    const world = loginWorld()
    const partner = world.cloud.createPrincipal({ type: 'role', name: 'partner', account_id: '210987654321' })
    const instance = world.cloud.createInstance({ ami_id: 'ami-0abc1234', account_id: '210987654321' })
    const home = world.cloud.createInstance({ ami_id: 'ami-0abc1234' })
    await createEc2Role(world, 'web', instance)
    const listener = await cloudListener(world)
    await world.api('POST', 'config/client', { sts_endpoint: listener.url, sts_region: 'eu-west-1' })
    await world.api('POST', 'config/sts/210987654321', { sts_role: partner.arn, external_id: 'x-1' })
    const login = (id: string) => world.login({ role: 'web', pkcs7: world.cloud.identityDocument(id, 'rsa2048').replace(/\n/g, ''), nonce: 'n' })
    expect((await login(instance.instance_id)).status).toBe(200)
    expect((await login(home.instance_id)).status).toBe(200)
    const actions = listener.calls.map((c) => new URLSearchParams(c.body))
    expect(actions.map((a) => a.get('Action'))).toEqual(['AssumeRole', 'GetCallerIdentity'])
    expect(actions[0]!.get('ExternalId')).toBe('x-1')
    expect(actions[0]!.get('RoleArn')).toBe(partner.arn)
    for (const call of listener.calls) expect(call.authorization).toMatch(/Credential=[A-Z0-9]+\/\d{8}\/eu-west-1\/sts\/aws4_request/)
  })
})
