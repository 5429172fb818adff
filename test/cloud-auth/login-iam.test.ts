import { Sha256 } from '@aws-crypto/sha256-js'
import { SignatureV4 } from '@smithy/signature-v4'
import { describe, expect, it } from 'vitest'
import type { Principal } from '../../src/services/fake-cloud/index.ts'
import { aws4LoginData, GET_CALLER_IDENTITY, loginWorld, type LoginWorld } from './login-setup.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const SERVER_ID = 'X-Service-Cloud-IAM-Server-ID'

interface Credentials {
  accessKeyId: string
  secretAccessKey: string
  sessionToken?: string
}

function credentialsOf(principal: Principal): Credentials {
  return {
    accessKeyId: principal.access_key_id,
    secretAccessKey: principal.secret_access_key,
    ...(principal.session_token && { sessionToken: principal.session_token }),
  }
}

/** A POST GetCallerIdentity signed by the real `@smithy/signature-v4` signer; headers sent as a JSON object. */
async function smithyLoginData(
  world: LoginWorld,
  credentials: Credentials,
  options: { headers?: Record<string, string>; region?: string; host?: string } = {},
): Promise<Record<string, unknown>> {
  const region = options.region ?? 'us-east-1'
  const host = options.host ?? 'sts.amazonaws.com'
  const signer = new SignatureV4({ service: 'sts', region, credentials, sha256: Sha256 })
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: 'https:',
      hostname: host,
      path: '/',
      headers: { host, 'content-type': 'application/x-www-form-urlencoded; charset=utf-8', ...options.headers },
      body: GET_CALLER_IDENTITY,
    },
    { signingDate: world.doppel.clock.now() },
  )
  const headers: Record<string, string> = {}
  for (const [key, value] of Object.entries(signed.headers)) if (key !== 'host') headers[key] = value
  return {
    iam_http_request_method: 'POST',
    iam_request_url: Buffer.from(`https://${host}/`).toString('base64'),
    iam_request_body: Buffer.from(GET_CALLER_IDENTITY).toString('base64'),
    iam_request_headers: headers,
  }
}

/** A presigned GET GetCallerIdentity (`@smithy/signature-v4` presign), as SDK v2 presigners build them. */
async function presignedLoginData(world: LoginWorld, credentials: Credentials, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const signer = new SignatureV4({ service: 'sts', region: 'us-east-1', credentials, sha256: Sha256 })
  const signed = await signer.presign(
    {
      method: 'GET',
      protocol: 'https:',
      hostname: 'sts.amazonaws.com',
      path: '/',
      query: { Action: 'GetCallerIdentity', Version: '2011-06-15' },
      headers: { host: 'sts.amazonaws.com', ...headers },
    },
    { signingDate: world.doppel.clock.now(), expiresIn: 900 },
  )
  const query = new URLSearchParams(signed.query as Record<string, string>).toString()
  return {
    iam_http_request_method: 'GET',
    iam_request_url: Buffer.from(`https://sts.amazonaws.com/?${query}`).toString('base64'),
    iam_request_body: '',
    iam_request_headers: headers,
  }
}

function setup(options: Parameters<typeof loginWorld>[0] = {}) {
  const world = loginWorld(options)
  const alice = world.cloud.createPrincipal({ type: 'user', name: 'alice' })
  return { world, alice }
}

async function iamRole(world: LoginWorld, name: string, fields: Record<string, unknown>): Promise<void> {
  const reply = await world.api('POST', `role/${name}`, { auth_type: 'iam', policies: 'dev', ...fields })
  if (reply.status >= 300) throw new Error(`role ${name}: ${JSON.stringify(reply.body)}`)
}

describe('iam login with real signers', () => {
  it('logs in with a request signed by @smithy/signature-v4 and answers with the real auth shape', async () => {
    const { world, alice } = setup()
    await iamRole(world, 'alice', { bound_iam_principal_arn: alice.arn })
    const role = (await world.api('GET', 'role/alice')).body.data
    const reply = await world.login(await smithyLoginData(world, credentialsOf(alice)))
    expect(reply.status).toBe(200)
    const auth = reply.body.auth
    expect(Object.keys(auth)).toEqual([
      'client_token', 'accessor', 'policies', 'token_policies', 'metadata', 'lease_duration', 'renewable',
      'entity_id', 'token_type', 'orphan', 'mfa_requirement', 'num_uses',
    ])
    expect(auth).toMatchObject({
      policies: ['default', 'dev'],
      token_policies: ['default', 'dev'],
      metadata: { account_id: alice.account_id, auth_type: 'iam', role_id: role.role_id },
      lease_duration: 2764800,
      renewable: true,
      token_type: 'service',
      orphan: true,
      mfa_requirement: null,
      num_uses: 0,
    })
    expect(Object.keys(auth.metadata)).toHaveLength(3)
    expect(auth.client_token).toMatch(/^hvs\.[A-Za-z0-9]{24}$/)
    expect(auth.entity_id).toMatch(UUID)
  })

  it('logs in with a request signed by aws4, carrying and signing the server-id header', async () => {
    const { world, alice } = setup()
    await world.api('POST', 'config/client', { iam_server_id_header_value: 'doppel-test' })
    await iamRole(world, 'reader', { bound_iam_principal_arn: alice.arn })
    const reply = await world.login({ role: 'reader', ...aws4LoginData(world, alice, { extraHeaders: { [SERVER_ID]: 'doppel-test' } }) })
    expect(reply.status).toBe(200)
    expect(reply.body.auth.policies).toEqual(['default', 'dev'])
  })

  it('logs in with a presigned GET request', async () => {
    const { world, alice } = setup()
    await world.api('POST', 'config/client', { iam_server_id_header_value: 'doppel-test' })
    await iamRole(world, 'alice', { bound_iam_principal_arn: alice.arn })
    const reply = await world.login(await presignedLoginData(world, credentialsOf(alice), { [SERVER_ID]: 'doppel-test' }))
    expect(reply.status).toBe(200)
    const unsigned = await presignedLoginData(world, credentialsOf(alice))
    unsigned.iam_request_headers = { [SERVER_ID]: 'doppel-test' }
    expect((await world.login(unsigned)).body).toEqual({
      errors: [`error validating ${SERVER_ID} header: vault header wasn't signed`],
    })
  })

  it('logs in with a presigned GET request that carries no iam_request_body field', async () => {
    const { world, alice } = setup()
    await iamRole(world, 'alice', { bound_iam_principal_arn: alice.arn })
    const { iam_request_body: _, ...withoutBody } = await presignedLoginData(world, credentialsOf(alice), { 'X-Trace': 't-1' })
    const reply = await world.login({ role: 'alice', ...withoutBody })
    expect(reply.status).toBe(200)
    expect(reply.body.auth.metadata.auth_type).toBe('iam')
  })

  it('selects every iam metadata field and uses the configured alias', async () => {
    const { world, alice } = setup()
    await world.api('POST', 'config/identity', {
      iam_alias: 'full_arn',
      iam_metadata: 'account_id,auth_type,canonical_arn,client_arn,client_user_id,inferred_aws_region,inferred_entity_id,inferred_entity_type',
    })
    await iamRole(world, 'alice', { bound_iam_principal_arn: alice.arn })
    const first = await world.login(await smithyLoginData(world, credentialsOf(alice)))
    const role = (await world.api('GET', 'role/alice')).body.data
    expect(first.body.auth.metadata).toEqual({
      account_id: alice.account_id,
      auth_type: 'iam',
      canonical_arn: alice.arn,
      client_arn: alice.arn,
      client_user_id: alice.unique_id,
      role_id: role.role_id,
    })
    const again = await world.login(await smithyLoginData(world, credentialsOf(alice)))
    expect(again.body.auth.entity_id).toBe(first.body.auth.entity_id)
  })
})

describe('server-id header', () => {
  async function configured() {
    const { world, alice } = setup()
    await world.api('POST', 'config/client', { iam_server_id_header_value: 'doppel-test' })
    await iamRole(world, 'alice', { bound_iam_principal_arn: alice.arn })
    return { world, alice }
  }

  it('refuses a login without the header', async () => {
    const { world, alice } = await configured()
    expect((await world.login(aws4LoginData(world, alice))).body).toEqual({
      errors: [`error validating ${SERVER_ID} header: missing header "${SERVER_ID}"`],
    })
  })

  it('refuses a wrong value', async () => {
    const { world, alice } = await configured()
    expect((await world.login(aws4LoginData(world, alice, { extraHeaders: { [SERVER_ID]: 'other' } }))).body).toEqual({
      errors: [`error validating ${SERVER_ID} header: expected "doppel-test" but got "other"`],
    })
  })

  it('refuses a header that was not signed', async () => {
    const { world, alice } = await configured()
    const data = await smithyLoginData(world, credentialsOf(alice))
    ;(data.iam_request_headers as Record<string, string>)[SERVER_ID] = 'doppel-test'
    expect((await world.login(data)).body).toEqual({ errors: [`error validating ${SERVER_ID} header: vault header wasn't signed`] })
  })

  it('uses the vault profile header name in the vault profile', async () => {
    const { world, alice } = setup({ profile: 'vault' })
    await world.api('POST', 'config/client', { iam_server_id_header_value: 'doppel-test' })
    await iamRole(world, 'alice', { bound_iam_principal_arn: alice.arn })
    expect((await world.login(aws4LoginData(world, alice, { extraHeaders: { [SERVER_ID]: 'doppel-test' } }))).body).toEqual({
      errors: ['error validating X-Vault-AWS-IAM-Server-ID header: missing header "X-Vault-AWS-IAM-Server-ID"'],
    })
    const reply = await world.login(aws4LoginData(world, alice, { extraHeaders: { 'X-Vault-AWS-IAM-Server-ID': 'doppel-test' } }))
    expect(reply.status).toBe(200)
  })
})

describe('refused signed requests', () => {
  it('refuses a wrong SigV4 signature with the STS error', async () => {
    const { world, alice } = setup()
    await iamRole(world, 'alice', { bound_iam_principal_arn: alice.arn })
    const reply = await world.login(aws4LoginData(world, alice, { secret: 'x'.repeat(40) }))
    expect(reply.status).toBe(400)
    expect(reply.body.errors[0]).toMatch(/^error making upstream request: received error code 403 from STS: <ErrorResponse/)
    expect(reply.body.errors[0]).toContain('<Code>SignatureDoesNotMatch</Code>')
  })

  it('refuses a signature made more than 15 minutes ago', async () => {
    const { world, alice } = setup()
    await iamRole(world, 'alice', { bound_iam_principal_arn: alice.arn })
    const data = aws4LoginData(world, alice)
    world.doppel.clock.advance('16m')
    const reply = await world.login(data)
    expect(reply.status).toBe(400)
    expect(reply.body.errors[0]).toMatch(/^error making upstream request: received error code 403 from STS: /)
    expect(reply.body.errors[0]).toContain('Signature expired: 20260301T120000Z is now earlier than 20260301T120100Z (20260301T121600Z - 15 min.)')
  })

  it('refuses an unknown principal (deleted keys)', async () => {
    const { world, alice } = setup()
    await iamRole(world, 'alice', { bound_iam_principal_arn: alice.arn })
    world.cloud.deletePrincipal(alice.arn)
    const reply = await world.login(aws4LoginData(world, alice))
    expect(reply.body.errors[0]).toMatch(/^error making upstream request: received error code 403 from STS: /)
    expect(reply.body.errors[0]).toContain('<Code>InvalidClientTokenId</Code>')
  })

  it('refuses a principal the role does not bind, and a missing role', async () => {
    const { world, alice } = setup()
    const bob = world.cloud.createPrincipal({ type: 'user', name: 'bob' })
    await iamRole(world, 'alice', { bound_iam_principal_arn: alice.arn })
    expect((await world.login({ role: 'alice', ...aws4LoginData(world, bob) })).body).toEqual({
      errors: [`IAM Principal "${bob.arn}" does not belong to the role "alice"`],
    })
    expect((await world.login(aws4LoginData(world, bob))).body).toEqual({ errors: ['entry for role bob not found'] })
  })

  it('refuses a recreated principal under unique-id binding until the role is posted again', async () => {
    const { world, alice } = setup()
    await iamRole(world, 'alice', { bound_iam_principal_arn: alice.arn })
    world.cloud.deletePrincipal(alice.arn)
    const again = world.cloud.createPrincipal({ type: 'user', name: 'alice' })
    expect(again.unique_id).not.toBe(alice.unique_id)
    expect((await world.login(aws4LoginData(world, again))).body).toEqual({
      errors: [`IAM Principal "${again.arn}" does not belong to the role "alice"`],
    })
    await iamRole(world, 'alice', { bound_iam_principal_arn: alice.arn })
    expect((await world.login(aws4LoginData(world, again))).status).toBe(200)
  })

  it('matches wildcard binds against the full ARN with its path', async () => {
    const { world } = setup()
    const carol = world.cloud.createPrincipal({ type: 'user', name: 'carol', path: '/team/' })
    const dave = world.cloud.createPrincipal({ type: 'user', name: 'dave' })
    await iamRole(world, 'team', { bound_iam_principal_arn: 'arn:aws:iam::123456789012:user/team/*' })
    expect((await world.login({ role: 'team', ...aws4LoginData(world, carol) })).status).toBe(200)
    expect((await world.login({ role: 'team', ...aws4LoginData(world, dave) })).body).toEqual({
      errors: [`IAM Principal "${dave.arn}" does not belong to the role "team"`],
    })
  })

  it('binds canonical ARNs exactly when unique ids are not resolved', async () => {
    const { world, alice } = setup()
    await iamRole(world, 'alice', { bound_iam_principal_arn: alice.arn, resolve_aws_unique_ids: false })
    world.cloud.deletePrincipal(alice.arn)
    const again = world.cloud.createPrincipal({ type: 'user', name: 'alice' })
    expect((await world.login(aws4LoginData(world, again))).status).toBe(200)
  })

  it('refuses a role of the ec2 type and callers outside token_bound_cidrs', async () => {
    const { world, alice } = setup()
    await world.api('POST', 'role/alice', { auth_type: 'ec2', bound_ami_id: 'ami-1' })
    expect((await world.login(aws4LoginData(world, alice))).body).toEqual({ errors: ['auth method iam not allowed for role alice'] })
    await iamRole(world, 'cidr', { bound_iam_principal_arn: alice.arn, token_bound_cidrs: '192.168.0.0/16' })
    expect(await world.login({ role: 'cidr', ...aws4LoginData(world, alice) })).toEqual({ status: 403, body: { errors: ['permission denied'] } })
  })
})

describe('request validation', () => {
  const encode = (text: string) => Buffer.from(text).toString('base64')
  const valid = (world: LoginWorld, alice: Principal) => aws4LoginData(world, alice)
  const cases: [string, (data: Record<string, unknown>) => Record<string, unknown>, string][] = [
    ['an empty method', (data) => ({ ...data, iam_http_request_method: '' }), 'missing iam_http_request_method'],
    ['another method', (data) => ({ ...data, iam_http_request_method: 'PUT' }), "invalid iam_http_request_method; currently only 'GET' and 'POST' are supported"],
    ['an empty url', (data) => ({ ...data, iam_request_url: '' }), 'missing iam_request_url'],
    ['a url that is not base64', (data) => ({ ...data, iam_request_url: '%%%' }), 'failed to base64 decode iam_request_url'],
    ['a query on a POST url', (data) => ({ ...data, iam_request_url: encode('https://sts.amazonaws.com/?Action=GetCallerIdentity') }), 'invalid request'],
    ['an empty body', (data) => ({ ...data, iam_request_body: '' }), 'missing iam_request_body which is required for POST requests'],
    ['no body (then it is no iam login)', ({ iam_request_body: _, ...data }) => data, "didn't supply required authentication values"],
    ['another action', (data) => ({ ...data, iam_request_body: encode('Action=GetSessionToken&Version=2011-06-15') }), 'iam request body is invalid'],
    ['two actions', (data) => ({ ...data, iam_request_body: encode('Action=GetCallerIdentity&Action=GetCallerIdentity') }), 'iam request body is invalid'],
    ['no headers', (data) => ({ ...data, iam_request_headers: {} }), 'missing iam_request_headers'],
  ]
  it.each(cases)('refuses %s', async (_, change, message) => {
    const { world, alice } = setup()
    expect(await world.login(change(valid(world, alice)))).toEqual({ status: 400, body: { errors: [message] } })
  })

  it('refuses X-Amz headers outside the allow-list once config/client exists', async () => {
    const { world, alice } = setup()
    await iamRole(world, 'alice', { bound_iam_principal_arn: alice.arn })
    const data = aws4LoginData(world, alice, { extraHeaders: { 'X-Amz-Mallory-Header': '<?xml><h4ck0r/>' } })
    expect((await world.login(data)).status).toBe(200)
    await world.api('POST', 'config/client', { max_retries: 0 })
    expect((await world.login(data)).body).toEqual({ errors: ['invalid request header: X-Amz-Mallory-Header'] })
    await world.api('POST', 'config/client', { allowed_sts_header_values: 'x-amz-mallory-header' })
    expect((await world.login(data)).status).toBe(200)
  })

  it('reads the headers in every TypeHeader form', async () => {
    const { world, alice } = setup()
    await iamRole(world, 'alice', { bound_iam_principal_arn: alice.arn })
    const data = aws4LoginData(world, alice)
    const headers = JSON.parse(Buffer.from(data.iam_request_headers!, 'base64').toString('utf8')) as Record<string, string>
    const asArrays = Object.fromEntries(Object.entries(headers).map(([key, value]) => [key, [value]]))
    for (const form of [headers, asArrays, JSON.stringify(asArrays), Object.entries(headers).map(([key, value]) => `${key}:${value}`)]) {
      expect((await world.login({ ...data, iam_request_headers: form })).status).toBe(200)
    }
  })

  it('forwards to the regional endpoint of the credential scope with use_sts_region_from_client', async () => {
    const { world, alice } = setup()
    await iamRole(world, 'alice', { bound_iam_principal_arn: alice.arn })
    await world.api('POST', 'config/client', { use_sts_region_from_client: true })
    const regional = await smithyLoginData(world, credentialsOf(alice), { region: 'us-west-2', host: 'sts.us-west-2.amazonaws.com' })
    expect((await world.login(regional)).status).toBe(200)
    const unknown = await smithyLoginData(world, credentialsOf(alice), { region: 'fake-region-1', host: 'sts.amazonaws.com' })
    expect((await world.login(unknown)).body).toEqual({ errors: ['unable to get regional STS endpoint for region: fake-region-1'] })
  })
})

describe('inferring an EC2 instance', () => {
  async function instanceCredentials(world: LoginWorld, instanceId: string): Promise<Credentials> {
    world.cloud.useInstance(instanceId)
    const response = await world.doppel.fetch('http://169.254.169.254/latest/meta-data/iam/security-credentials/web-app')
    const body = (await response.json()) as { AccessKeyId: string; SecretAccessKey: string; Token: string }
    return { accessKeyId: body.AccessKeyId, secretAccessKey: body.SecretAccessKey, sessionToken: body.Token }
  }

  async function inferred(fields: Record<string, unknown> = {}) {
    const world = loginWorld()
    const instance = world.cloud.createInstance({ iam_role_name: 'web-app' })
    await world.api('POST', 'config/identity', { iam_metadata: 'account_id,auth_type,inferred_aws_region,inferred_entity_id,inferred_entity_type' })
    await iamRole(world, 'web-app', {
      inferred_entity_type: 'ec2_instance',
      inferred_aws_region: instance.region,
      bound_ami_id: instance.ami_id,
      ...fields,
    })
    return { world, instance, credentials: await instanceCredentials(world, instance.instance_id) }
  }

  it('logs in as the instance behind an assumed-role session', async () => {
    const { world, instance, credentials } = await inferred()
    const reply = await world.login(await smithyLoginData(world, credentials))
    expect(reply.status).toBe(200)
    expect(reply.body.auth.metadata).toMatchObject({
      inferred_aws_region: instance.region,
      inferred_entity_id: instance.instance_id,
      inferred_entity_type: 'ec2_instance',
    })
  })

  it('refuses an instance that is not running', async () => {
    const { world, instance, credentials } = await inferred()
    world.cloud.setInstanceState(instance.instance_id, 'stopped')
    expect((await world.login(await smithyLoginData(world, credentials))).body).toEqual({
      errors: [`failed to verify ${instance.instance_id} as a valid EC2 instance in region ${instance.region}: instance is not in 'running' state`],
    })
  })

  it('applies the instance bounds with the lower-case prefix', async () => {
    const { world, instance, credentials } = await inferred({ bound_ami_id: 'ami-00000000000000000' })
    expect((await world.login(await smithyLoginData(world, credentials))).body).toEqual({
      errors: [`error validating instance: AMI ID "${instance.ami_id}" does not belong to role "web-app"`],
    })
  })
})
