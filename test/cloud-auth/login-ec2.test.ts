import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Instance } from '../../src/services/fake-cloud/index.ts'
import { createEc2Role, identitySignature, loginWorld, START } from './login-setup.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

function setup(options: Parameters<typeof loginWorld>[0] = {}) {
  const world = loginWorld(options)
  const instance = world.cloud.createInstance({ iam_role_name: 'web-app' })
  const rsa2048 = () => world.cloud.identityDocument(instance.instance_id, 'rsa2048')
  return { world, instance, rsa2048 }
}

describe('ec2 login with the rsa2048 document', () => {
  it('logs in and answers with the auth object of the real service', async () => {
    const { world, instance, rsa2048 } = setup()
    await createEc2Role(world, 'web-role', instance, { policies: 'Dev,ops,dev' })
    const reply = await world.login({ role: 'web-role', pkcs7: rsa2048() })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ lease_id: '', renewable: false, lease_duration: 0, data: null, wrap_info: null, warnings: null })
    expect(reply.body.request_id).toMatch(UUID)
    const auth = reply.body.auth
    expect(Object.keys(auth)).toEqual([
      'client_token', 'accessor', 'policies', 'token_policies', 'metadata', 'lease_duration', 'renewable',
      'entity_id', 'token_type', 'orphan', 'mfa_requirement', 'num_uses',
    ])
    expect(auth.client_token).toMatch(/^hvs\.[A-Za-z0-9]{24}$/)
    expect(auth.accessor).toMatch(/^[A-Za-z0-9]{24}$/)
    expect(auth.policies).toEqual(['default', 'dev', 'ops'])
    expect(auth.token_policies).toEqual(['default', 'dev', 'ops'])
    expect(auth.metadata).toEqual({
      account_id: instance.account_id,
      auth_type: 'ec2',
      nonce: expect.stringMatching(UUID),
      role: 'web-role',
      role_tag_max_ttl: '0s',
    })
    expect(auth).toMatchObject({ lease_duration: 2764800, renewable: true, token_type: 'service', orphan: true, mfa_requirement: null, num_uses: 0 })
    expect(auth.entity_id).toMatch(UUID)
  })

  it('writes the identity access-list entry (GET identity-accesslist/<id>)', async () => {
    const { world, instance, rsa2048 } = setup()
    await createEc2Role(world, 'Web-Role', instance)
    const login = await world.login({ role: 'Web-Role', pkcs7: rsa2048() })
    const entry = await world.api('GET', `identity-accesslist/${instance.instance_id}`)
    expect(entry.status).toBe(200)
    expect(entry.body.data).toEqual({
      role: 'Web-Role',
      client_nonce: login.body.auth.metadata.nonce,
      creation_time: START,
      disallow_reauthentication: false,
      pending_time: instance.pending_time,
      expiration_time: '2026-04-02T12:00:00Z',
      last_updated_time: START,
    })
  })

  it('re-logs in with the returned nonce, without echoing it again', async () => {
    const { world, instance, rsa2048 } = setup()
    await createEc2Role(world, 'web-role', instance)
    const first = await world.login({ role: 'web-role', pkcs7: rsa2048() })
    const again = await world.login({ role: 'web-role', pkcs7: rsa2048(), nonce: first.body.auth.metadata.nonce })
    expect(again.status).toBe(200)
    expect(again.body.auth.metadata.nonce).toBeUndefined()
    expect(again.body.auth.entity_id).toBe(first.body.auth.entity_id)
  })

  it('defaults the role to the image id and selects the configured metadata', async () => {
    const { world, instance, rsa2048 } = setup()
    await createEc2Role(world, instance.ami_id, instance)
    expect((await world.api('POST', 'config/identity', { ec2_metadata: 'instance_id,region,ami_id,account_id,auth_type' })).status).toBe(204)
    const reply = await world.login({ pkcs7: rsa2048(), nonce: 'client-nonce' })
    expect(reply.status).toBe(200)
    expect(reply.body.auth.metadata).toEqual({
      account_id: instance.account_id,
      ami_id: instance.ami_id,
      auth_type: 'ec2',
      instance_id: instance.instance_id,
      region: instance.region,
      role: instance.ami_id,
      role_tag_max_ttl: '0s',
    })
  })

  it('warns about unknown fields, sorted', async () => {
    const { world, instance, rsa2048 } = setup()
    await createEc2Role(world, 'web-role', instance)
    const reply = await world.login({ role: 'web-role', pkcs7: rsa2048(), zeta: 1, request_role: 'x' })
    expect(reply.body.warnings).toEqual(['Endpoint ignored these unrecognized parameters: [request_role zeta]'])
  })

  it('caps the TTL at the role maximum with the core warning', async () => {
    const { world, instance, rsa2048 } = setup()
    await createEc2Role(world, 'web-role', instance, { token_max_ttl: '1h' })
    const reply = await world.login({ role: 'web-role', pkcs7: rsa2048() })
    expect(reply.body.auth.lease_duration).toBe(3600)
    expect(reply.body.warnings).toEqual(['TTL of "768h" exceeded the effective max_ttl of "1h"; TTL value is capped accordingly'])
  })

  it('issues batch tokens for a batch role', async () => {
    const { world, instance, rsa2048 } = setup()
    await createEc2Role(world, 'web-role', instance, { token_type: 'batch', token_ttl: 600 })
    const auth = (await world.login({ role: 'web-role', pkcs7: rsa2048() })).body.auth
    expect(auth.client_token).toMatch(/^hvb\.[A-Za-z0-9]{100,}$/)
    expect(auth).toMatchObject({ accessor: '', renewable: false, token_type: 'batch', lease_duration: 600 })
  })

  it('leaves out default with token_no_default_policy and uses the period as the TTL', async () => {
    const { world, instance, rsa2048 } = setup()
    await createEc2Role(world, 'web-role', instance, { token_policies: 'dev', token_no_default_policy: true, token_period: '10m', token_ttl: '1m' })
    const auth = (await world.login({ role: 'web-role', pkcs7: rsa2048() })).body.auth
    expect(auth).toMatchObject({ policies: ['dev'], token_policies: ['dev'], lease_duration: 600 })
  })

  it('answers on the vault profile mount too', async () => {
    const { world, instance, rsa2048 } = setup({ profile: 'vault' })
    await createEc2Role(world, 'web-role', instance)
    const response = await world.doppel.fetch('http://doppel.test/v1/auth/aws/login', {
      method: 'PUT',
      body: JSON.stringify({ role: 'web-role', pkcs7: rsa2048() }),
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ errors: ['entry for role "web-role" not found'] })
  })

  it('refuses to create root tokens after the method stored the access-list entry, as Vault', async () => {
    const { world, instance, rsa2048 } = setup()
    await createEc2Role(world, 'web-role', instance, { token_policies: 'root,dev' })
    expect(await world.login({ role: 'web-role', pkcs7: rsa2048() })).toEqual({ status: 400, body: { errors: ['auth methods cannot create root tokens'] } })
    expect((await world.api('GET', `identity-accesslist/${instance.instance_id}`)).status).toBe(200)
  })
})

describe('SHA-1 signed material (spec, Authentication 3)', () => {
  it('refuses the DSA-SHA1 pkcs7 document and the SHA-1 certificate of the signature flow by default', async () => {
    const { world, instance } = setup()
    await createEc2Role(world, 'web-role', instance)
    expect(await world.login({ role: 'web-role', pkcs7: world.cloud.identityDocument(instance.instance_id, 'pkcs7') })).toEqual({
      status: 400,
      body: { errors: ['failed to verify the signature: x509: cannot verify signature: insecure algorithm DSA-SHA1 (temporarily override with GODEBUG=x509sha1=1)'] },
    })
    expect(await world.login({ role: 'web-role', ...identitySignature(world, instance.instance_id) })).toEqual({
      status: 400,
      body: {
        errors: [
          'instance identity verification using SHA256 RSA signature is unsuccessful: x509: cannot verify signature: insecure algorithm SHA1-RSA (temporarily override with GODEBUG=x509sha1=1)',
        ],
      },
    })
  })

  // `allowSha1` at the top is the deprecated spelling of `cloudAuth: { allowSha1 }`, kept for one release.
  for (const options of [{ cloudAuth: { allowSha1: true } }, { allowSha1: true }]) {
    it(`verifies both with ${JSON.stringify(options)}, as the real service does with its workaround`, async () => {
      const { world, instance } = setup(options)
      await createEc2Role(world, 'web-role', instance)
      const pkcs7 = await world.login({ role: 'web-role', pkcs7: world.cloud.identityDocument(instance.instance_id, 'pkcs7'), nonce: 'n-1' })
      expect(pkcs7.status).toBe(200)
      const signature = await world.login({ role: 'web-role', ...identitySignature(world, instance.instance_id), nonce: 'n-1' })
      expect(signature.status).toBe(200)
      expect(signature.body.auth.metadata).toEqual({ account_id: instance.account_id, auth_type: 'ec2', role: 'web-role', role_tag_max_ttl: '0s' })
    })
  }
})

describe('SHA-1 signed material in the vault profile (docs/decisions/vault-profile-sha1.md)', () => {
  it("logs in with the DSA-SHA1 pkcs7 document and with identity + signature, as Vault's code does", async () => {
    const { world, instance } = setup({ profile: 'vault' })
    await createEc2Role(world, 'web-role', instance)
    const pkcs7 = await world.login({ role: 'web-role', pkcs7: world.cloud.identityDocument(instance.instance_id, 'pkcs7'), nonce: 'n-1' })
    expect(pkcs7.status).toBe(200)
    expect(pkcs7.body.auth.metadata.account_id).toBe(instance.account_id)
    const signature = await world.login({ role: 'web-role', ...identitySignature(world, instance.instance_id), nonce: 'n-1' })
    expect(signature.status).toBe(200)
    expect(signature.body.auth.metadata.role).toBe('web-role')
  })

  it('still refuses a signature that does not verify, with the flow\'s own message only', async () => {
    const { world, instance } = setup({ profile: 'vault' })
    await createEc2Role(world, 'web-role', instance)
    const { identity, signature } = identitySignature(world, instance.instance_id)
    const forged = Buffer.from(signature, 'base64')
    forged[10]! ^= 1
    // Vault's status for it, a 500 (test/cloud-auth/vault-status.test.ts).
    expect(await world.login({ role: 'web-role', identity, signature: forged.toString('base64') })).toEqual({
      status: 500,
      body: { errors: ['instance identity verification using SHA256 RSA signature is unsuccessful'] },
    })
  })
})

describe('signed material that does not verify', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'doppel-login-'))
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'foreign.key', '-out', 'foreign.pem', '-subj', '/C=US/O=Foreign', '-days', '36500', '-sha256'], { cwd: dir, stdio: 'pipe' })
  }, 30_000)
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const foreignPkcs7 = (document: string) => {
    writeFileSync(join(dir, 'doc.json'), document)
    execFileSync('openssl', ['cms', '-sign', '-binary', '-nodetach', '-nocerts', '-md', 'sha256', '-outform', 'DER', '-signer', 'foreign.pem', '-inkey', 'foreign.key', '-in', 'doc.json', '-out', 'doc.p7'], { cwd: dir, stdio: 'pipe' })
    return readFileSync(join(dir, 'doc.p7')).toString('base64')
  }
  const foreignSignature = (document: string) => {
    writeFileSync(join(dir, 'doc.json'), document)
    return execFileSync('openssl', ['dgst', '-sha256', '-sign', 'foreign.key', 'doc.json'], { cwd: dir }).toString('base64')
  }
  const foreignCertificate = () => Buffer.from(readFileSync(join(dir, 'foreign.pem'))).toString('base64')

  it('refuses a tampered document', async () => {
    const { world, instance, rsa2048 } = setup()
    await createEc2Role(world, 'web-role', instance)
    const der = Buffer.from(rsa2048(), 'base64')
    const at = der.indexOf(Buffer.from(instance.instance_id))
    der[at + instance.instance_id.length - 1] = der[at + instance.instance_id.length - 1] === 0x30 ? 0x31 : 0x30
    const reply = await world.login({ role: 'web-role', pkcs7: der.toString('base64') })
    expect(reply.status).toBe(400)
    expect(reply.body.errors[0]).toMatch(/^failed to verify the signature: pkcs7: Message digest mismatch\n\tExpected: [0-9A-F]+\n\tActual {2}: [0-9A-F]+$/)
  })

  it('refuses a tampered identity document under its signature', async () => {
    const { world, instance } = setup({ cloudAuth: { allowSha1: true } })
    await createEc2Role(world, 'web-role', instance)
    const pair = identitySignature(world, instance.instance_id)
    const tampered = Buffer.from(pair.identity, 'base64').toString('utf8').replace(instance.private_ip, '10.9.9.9')
    const reply = await world.login({ role: 'web-role', identity: Buffer.from(tampered).toString('base64'), signature: pair.signature })
    expect(reply).toEqual({ status: 400, body: { errors: ['instance identity verification using SHA256 RSA signature is unsuccessful'] } })
  })

  it('refuses a document signed by a foreign certificate until that certificate is registered as pkcs7', async () => {
    const { world, instance } = setup()
    await createEc2Role(world, 'web-role', instance)
    const pkcs7 = foreignPkcs7(world.cloud.identityDocument(instance.instance_id, 'document'))
    expect(await world.login({ role: 'web-role', pkcs7 })).toEqual({
      status: 400,
      body: { errors: ['failed to verify the signature: pkcs7: No certificate for signer'] },
    })
    expect((await world.api('POST', 'config/certificate/foreign-id', { aws_public_cert: foreignCertificate(), type: 'identity' })).status).toBe(204)
    expect((await world.login({ role: 'web-role', pkcs7 })).status).toBe(400)
    expect((await world.api('POST', 'config/certificate/foreign', { aws_public_cert: foreignCertificate() })).status).toBe(204)
    expect((await world.login({ role: 'web-role', pkcs7 })).status).toBe(200)
  })

  it('the dsa2048 document (DSA-2048, SHA-256) is not trusted by default, as AWS’s is not built into the real service; registered, it logs in', async () => {
    const { world, instance } = setup()
    await createEc2Role(world, 'web-role', instance)
    const pkcs7 = world.cloud.identityDocument(instance.instance_id, 'dsa2048').replace(/\n/g, '')
    expect(await world.login({ role: 'web-role', pkcs7 })).toEqual({
      status: 400,
      body: { errors: ['failed to verify the signature: pkcs7: No certificate for signer'] },
    })
    const certificate = readFileSync(new URL('../../certs/dsa2048.pem', import.meta.url), 'utf8')
    expect((await world.api('POST', 'config/certificate/dsa2048', { aws_public_cert: certificate, type: 'pkcs7' })).status).toBe(204)
    expect((await world.login({ role: 'web-role', pkcs7 })).status).toBe(200)
  })

  it('refuses a foreign identity signature until the certificate is registered as identity', async () => {
    const { world, instance } = setup()
    await createEc2Role(world, 'web-role', instance)
    const document = world.cloud.identityDocument(instance.instance_id, 'document')
    const body = { role: 'web-role', identity: Buffer.from(document).toString('base64'), signature: foreignSignature(document) }
    expect((await world.login(body)).body).toEqual({ errors: ['instance identity verification using SHA256 RSA signature is unsuccessful'] })
    expect((await world.api('POST', 'config/certificate/foreign', { aws_public_cert: foreignCertificate(), type: 'identity' })).status).toBe(204)
    expect((await world.login(body)).status).toBe(200)
  })

  it('renders the provider error of an unknown instance as the SDK prints it', async () => {
    const { world, instance } = setup()
    await createEc2Role(world, 'web-role', instance)
    await world.api('POST', 'config/certificate/foreign', { aws_public_cert: foreignCertificate() })
    const ghost = 'i-0123456789abcdef0'
    const document = world.cloud.identityDocument(instance.instance_id, 'document').replace(instance.instance_id, ghost)
    const reply = await world.login({ role: 'web-role', pkcs7: foreignPkcs7(document) })
    expect(reply.status).toBe(400)
    expect(reply.body.errors[0]).toMatch(
      new RegExp(`^failed to verify instance ID: error fetching description for instance ID "${ghost}": InvalidInstanceID.NotFound: The instance ID '${ghost}' does not exist\n\tstatus code: 400, request id: [0-9a-f-]{36}$`),
    )
  })

  it('needs a role name when the document has no image id', async () => {
    const { world, instance } = setup()
    await world.api('POST', 'config/certificate/foreign', { aws_public_cert: foreignCertificate() })
    const document = JSON.stringify({ accountId: instance.account_id, instanceId: instance.instance_id, region: instance.region, pendingTime: instance.pending_time })
    expect((await world.login({ pkcs7: foreignPkcs7(document) })).body).toEqual({ errors: ['missing role name'] })
  })

  it('reports undecodable documents with the real service messages', async () => {
    const { world } = setup()
    expect((await world.login({ pkcs7: 'not base64!' })).body).toEqual({ errors: ['failed to decode the PEM encoded PKCS#7 signature'] })
    expect((await world.login({ pkcs7: Buffer.from('hello').toString('base64') })).body.errors[0]).toMatch(/^failed to parse the BER encoded PKCS#7 signature: /)
    expect((await world.login({ identity: 'a', signature: 'b' })).body).toEqual({ errors: ['failed to base64 decode the instance identity document'] })
    expect((await world.login({ identity: 'YQ==', signature: 'b' })).body).toEqual({
      errors: ['failed to base64 decode the SHA256 RSA signature of the instance identity document'],
    })
  })
})

describe('login dispatch and field conversion', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['both flows', { pkcs7: 'x', iam_http_request_method: 'POST', iam_request_url: 'x', iam_request_body: 'x', iam_request_headers: { A: 'b' } }, 'supplied auth values for both ec2 and iam auth types'],
    ['nothing', { role: 'x' }, "didn't supply required authentication values"],
    ['identity without signature', { identity: 'x' }, "didn't supply required authentication values"],
    ['three iam fields', { iam_http_request_method: 'POST', iam_request_url: 'x', iam_request_body: 'x' }, "didn't supply required authentication values"],
    ['empty pkcs7', { pkcs7: '' }, 'either pkcs7 or a tuple containing the instance identity document and its SHA256 RSA signature needs to be provided'],
    ['all three ec2 inputs', { pkcs7: 'x', identity: 'YQ==', signature: 'YQ==' }, 'both pkcs7 and a tuple containing the instance identity document and its SHA256 RSA signature is supplied; provide only one'],
    ['a list as role', { pkcs7: 'x', role: ['a'] }, `Field validation failed: error converting input for field "role": '' expected type 'string', got unconvertible type '[]interface {}', value: '[a]'`],
  ]
  it.each(cases)('%s', async (_, body, message) => {
    const { world } = setup()
    expect(await world.login(body)).toEqual({ status: 400, body: { errors: [message] } })
  })

  it('refuses other methods on login', async () => {
    const { world } = setup()
    const response = await world.doppel.fetch('http://doppel.test/v1/auth/cloud/login')
    expect(response.status).toBe(405)
    expect(await response.json()).toEqual({ errors: ['unsupported operation'] })
  })
})

describe('role and instance checks', () => {
  it('refuses an unknown role, a role of the iam type and a caller outside token_bound_cidrs', async () => {
    const { world, instance, rsa2048 } = setup()
    expect((await world.login({ role: 'Nope', pkcs7: rsa2048() })).body).toEqual({ errors: ['entry for role "Nope" not found'] })
    await world.api('POST', 'role/iam-role', { auth_type: 'iam', bound_iam_principal_arn: 'arn:aws:iam::123456789012:user/x', resolve_aws_unique_ids: false })
    expect((await world.login({ role: 'iam-role', pkcs7: rsa2048() })).body).toEqual({ errors: ['auth method ec2 not allowed for role iam-role'] })
    await createEc2Role(world, 'cidr-role', instance, { token_bound_cidrs: '10.0.0.0/8' })
    expect(await world.login({ role: 'cidr-role', pkcs7: rsa2048() })).toEqual({ status: 403, body: { errors: ['permission denied'] } })
    expect((await world.login({ role: 'cidr-role', pkcs7: rsa2048() }, { remoteAddress: '10.1.2.3' })).status).toBe(200)
  })

  it('refuses a stopped instance', async () => {
    const { world, instance, rsa2048 } = setup()
    await createEc2Role(world, 'web-role', instance)
    const document = rsa2048()
    world.cloud.setInstanceState(instance.instance_id, 'stopped')
    expect((await world.login({ role: 'web-role', pkcs7: document })).body).toEqual({
      errors: ["failed to verify instance ID: instance is not in 'running' state"],
    })
  })

  it('refuses an instance of another account without an STS role for it', async () => {
    const { world } = setup()
    const other = world.cloud.createInstance({ account_id: '210987654321' })
    await createEc2Role(world, 'web-role', other)
    expect((await world.login({ role: 'web-role', pkcs7: world.cloud.identityDocument(other.instance_id, 'rsa2048') })).body).toEqual({
      errors: ['failed to verify instance ID: unable to fetch client for account ID "210987654321" -- default client is for account "123456789012"'],
    })
    // the default account is known now: Vault's stsRoleForAccount refuses before making a client
    expect((await world.login({ role: 'web-role', pkcs7: world.cloud.identityDocument(other.instance_id, 'rsa2048') })).body).toEqual({
      errors: ['failed to verify instance ID: no STS configuration found for account ID "210987654321"'],
    })
  })

  it('checks an instance of another account with the STS role configured for that account', async () => {
    const { world } = setup()
    const other = world.cloud.createInstance({ account_id: '210987654321' })
    const auditor = world.cloud.createPrincipal({ type: 'role', name: 'doppel-auditor', account_id: '210987654321' })
    await createEc2Role(world, 'web-role', other)
    expect((await world.api('POST', 'config/sts/210987654321', { sts_role: auditor.arn })).status).toBe(204)
    const reply = await world.login({ role: 'web-role', pkcs7: world.cloud.identityDocument(other.instance_id, 'rsa2048') })
    expect(reply.status).toBe(200)
    expect(reply.body.auth.metadata.account_id).toBe('210987654321')
  })

  const bounds: [string, (instance: Instance) => Record<string, unknown>, (instance: Instance) => string][] = [
    ['bound_region', () => ({ bound_region: 'eu-west-1' }), () => 'Region "us-east-1" does not satisfy the constraint on role "bound-role"'],
    ['bound_ec2_instance_id', () => ({ bound_ec2_instance_id: 'i-00000000000000000' }), (i) => `Error validating instance: instance ID "${i.instance_id}" does not belong to the role "bound-role"`],
    ['bound_account_id', () => ({ bound_account_id: '999999999999' }), (i) => `Error validating instance: account ID "${i.account_id}" does not belong to role "bound-role"`],
    ['bound_ami_id', () => ({ bound_ami_id: 'ami-00000000000000000' }), (i) => `Error validating instance: AMI ID "${i.ami_id}" does not belong to role "bound-role"`],
    ['bound_subnet_id', () => ({ bound_subnet_id: 'subnet-0' }), (i) => `Error validating instance: subnet ID "${i.subnet_id}" does not satisfy the constraint on role "bound-role"`],
    ['bound_vpc_id', () => ({ bound_vpc_id: 'vpc-0' }), (i) => `Error validating instance: VPC ID "${i.vpc_id}" does not satisfy the constraint on role "bound-role"`],
    ['bound_iam_instance_profile_arn', () => ({ bound_iam_instance_profile_arn: 'arn:aws:iam::123456789012:instance-profile/other' }), (i) => `Error validating instance: IAM instance profile ARN "${i.instance_profile_arn}" does not satisfy the constraint role "bound-role"`],
    ['bound_iam_instance_profile_arn with a * in the middle', () => ({ bound_iam_instance_profile_arn: 'arn:aws:iam::123456789012:instance-profile/*app' }), (i) => `Error validating instance: IAM instance profile ARN "${i.instance_profile_arn}" does not satisfy the constraint role "bound-role"`],
    ['bound_iam_role_arn', () => ({ bound_iam_role_arn: 'arn:aws:iam::123456789012:role/other' }), (i) => `Error validating instance: IAM role ARN "${i.iam_role_arn}" does not satisfy the constraint role "bound-role"`],
    ['bound_iam_role_arn truncated without *', (i) => ({ bound_iam_role_arn: i.iam_role_arn!.slice(0, -2) }), (i) => `Error validating instance: IAM role ARN "${i.iam_role_arn}" does not satisfy the constraint role "bound-role"`],
  ]
  it.each(bounds)('refuses a failed %s', async (_, fields, message) => {
    const { world, instance, rsa2048 } = setup()
    const reply = await world.api('POST', 'role/bound-role', { auth_type: 'ec2', ...fields(instance) })
    expect(reply.status).toBe(204)
    expect(await world.login({ role: 'bound-role', pkcs7: rsa2048() })).toEqual({ status: 400, body: { errors: [message(instance)] } })
  })

  it('accepts trailing-wildcard profile and role ARN binds', async () => {
    const { world, instance, rsa2048 } = setup()
    await world.api('POST', 'role/bound-role', {
      auth_type: 'ec2',
      bound_iam_instance_profile_arn: `${instance.instance_profile_arn!.slice(0, -3)}*`,
      bound_iam_role_arn: `${instance.iam_role_arn!.slice(0, -2)}*`,
      bound_ec2_instance_id: instance.instance_id,
      bound_subnet_id: instance.subnet_id,
      bound_vpc_id: instance.vpc_id,
      bound_account_id: instance.account_id,
      bound_region: instance.region,
    })
    expect((await world.login({ role: 'bound-role', pkcs7: rsa2048() })).status).toBe(200)
  })

  it('refuses a profile bind for an instance without a profile', async () => {
    const { world } = setup()
    const bare = world.cloud.createInstance()
    await world.api('POST', 'role/bound-role', { auth_type: 'ec2', bound_iam_role_arn: 'arn:aws:iam::123456789012:role/*' })
    expect((await world.login({ role: 'bound-role', pkcs7: world.cloud.identityDocument(bare.instance_id, 'rsa2048') })).body).toEqual({
      errors: ['IAM instance profile in the instance description is nil'],
    })
  })
})

describe('client nonce, migration and reauthentication', () => {
  it('refuses a replayed document with another nonce, and one without a nonce', async () => {
    const { world, instance, rsa2048 } = setup()
    await createEc2Role(world, 'web-role', instance)
    expect((await world.login({ role: 'web-role', pkcs7: rsa2048(), nonce: 'first' })).status).toBe(200)
    expect((await world.login({ role: 'web-role', pkcs7: rsa2048(), nonce: 'second' })).body).toEqual({ errors: ['client nonce mismatch'] })
    expect((await world.login({ role: 'web-role', pkcs7: rsa2048() })).body).toEqual({ errors: ['client nonce mismatch'] })
    expect((await world.login({ role: 'web-role', pkcs7: rsa2048(), nonce: 'first' })).status).toBe(200)
  })

  it('allows a new nonce after a stop/start when the role allows migration, keeping the stored nonce', async () => {
    const { world, instance, rsa2048 } = setup()
    await createEc2Role(world, 'web-role', instance, { allow_instance_migration: true })
    const before = rsa2048()
    expect((await world.login({ role: 'web-role', pkcs7: before, nonce: 'first' })).status).toBe(200)
    expect((await world.login({ role: 'web-role', pkcs7: before, nonce: 'second' })).body).toEqual({
      errors: ['client nonce mismatch and instance meta-data incorrect'],
    })
    world.doppel.clock.advance('10m')
    world.cloud.setInstanceState(instance.instance_id, 'stopped')
    world.cloud.setInstanceState(instance.instance_id, 'running')
    const after = rsa2048()
    expect(after).not.toBe(before)
    expect((await world.login({ role: 'web-role', pkcs7: after, nonce: 'second' })).status).toBe(200)
    const entry = (await world.api('GET', `identity-accesslist/${instance.instance_id}`)).body.data
    expect(entry.client_nonce).toBe('first')
    expect(entry.pending_time).toBe(world.cloud.getInstance(instance.instance_id)!.pending_time)
    expect((await world.login({ role: 'web-role', pkcs7: before, nonce: 'first' })).body).toEqual({
      errors: ['instance meta-data is older than the one used for previous login'],
    })
  })

  it('refuses migration when the role does not allow it', async () => {
    const { world, instance, rsa2048 } = setup()
    await createEc2Role(world, 'web-role', instance)
    expect((await world.login({ role: 'web-role', pkcs7: rsa2048(), nonce: 'first' })).status).toBe(200)
    world.doppel.clock.advance('10m')
    world.cloud.setInstanceState(instance.instance_id, 'stopped')
    world.cloud.setInstanceState(instance.instance_id, 'running')
    expect((await world.login({ role: 'web-role', pkcs7: rsa2048(), nonce: 'second' })).body).toEqual({ errors: ['client nonce mismatch'] })
  })

  it('disallows reauthentication until the access-list entry is deleted', async () => {
    const { world, instance, rsa2048 } = setup()
    await createEc2Role(world, 'web-role', instance, { disallow_reauthentication: true })
    const first = await world.login({ role: 'web-role', pkcs7: rsa2048() })
    expect(first.status).toBe(200)
    expect(first.body.auth.metadata.nonce).toBeUndefined()
    const entry = (await world.api('GET', `identity-accesslist/${instance.instance_id}`)).body.data
    expect(entry).toMatchObject({ client_nonce: '', disallow_reauthentication: true })
    expect((await world.login({ role: 'web-role', pkcs7: rsa2048() })).body).toEqual({ errors: ['reauthentication is disabled'] })
    expect((await world.api('DELETE', `identity-accesslist/${instance.instance_id}`)).status).toBe(204)
    expect((await world.login({ role: 'web-role', pkcs7: rsa2048() })).status).toBe(200)
  })

  it('treats an empty nonce as the wish to disable reauthentication', async () => {
    const { world, instance, rsa2048 } = setup()
    await createEc2Role(world, 'web-role', instance)
    const first = await world.login({ role: 'web-role', pkcs7: rsa2048(), nonce: '' })
    expect(first.status).toBe(200)
    expect(first.body.auth.metadata.nonce).toBeUndefined()
    expect((await world.login({ role: 'web-role', pkcs7: rsa2048(), nonce: 'x' })).body).toEqual({ errors: ['reauthentication is disabled'] })
  })

  it('refuses a nonce over 128 characters and writes nothing', async () => {
    const { world, instance, rsa2048 } = setup()
    await createEc2Role(world, 'web-role', instance)
    expect((await world.login({ role: 'web-role', pkcs7: rsa2048(), nonce: 'n'.repeat(129) })).body).toEqual({
      errors: ['client nonce exceeding the limit of 128 characters'],
    })
    expect((await world.api('GET', `identity-accesslist/${instance.instance_id}`)).status).toBe(404)
  })
})

describe('role tags', () => {
  async function tagged(fields: Record<string, unknown> = {}, tagFields: Record<string, unknown> = {}, key = 'VaultRole') {
    const world = loginWorld()
    const probe = world.cloud.createInstance({ iam_role_name: 'web-app' })
    await world.api('POST', 'role/tag-role', { auth_type: 'ec2', bound_ami_id: probe.ami_id, role_tag: 'VaultRole', policies: 'dev,ops', ...fields })
    const tag = (await world.api('POST', 'role/tag-role/tag', tagFields)).body.data.tag_value as string
    const instance = world.cloud.createInstance({ ami_id: probe.ami_id, iam_role_name: 'web-app', tags: { [key]: tag } })
    return { world, tag, instance, pkcs7: () => world.cloud.identityDocument(instance.instance_id, 'rsa2048') }
  }

  it('applies the tag policies and max TTL', async () => {
    const { world, pkcs7 } = await tagged({}, { policies: 'dev', max_ttl: '2m' })
    const reply = await world.login({ role: 'tag-role', pkcs7: pkcs7() })
    expect(reply.status).toBe(200)
    expect(reply.body.auth.policies).toEqual(['default', 'dev'])
    expect(reply.body.auth.metadata.role_tag_max_ttl).toBe('2m0s')
    expect(reply.body.auth.lease_duration).toBe(120)
    expect(reply.body.warnings).toEqual(['TTL of "768h" exceeded the effective max_ttl of "2m"; TTL value is capped accordingly'])
  })

  it('keeps the role policies for a tag without policies', async () => {
    const { world, pkcs7 } = await tagged()
    expect((await world.login({ role: 'tag-role', pkcs7: pkcs7() })).body.auth.policies).toEqual(['default', 'dev', 'ops'])
  })

  it('refuses a deny-listed tag', async () => {
    const { world, tag, pkcs7 } = await tagged()
    expect((await world.api('POST', `roletag-denylist/${encodeURIComponent(tag)}`)).status).toBe(204)
    expect((await world.login({ role: 'tag-role', pkcs7: pkcs7() })).body).toEqual({ errors: ['role tag is deny listed'] })
  })

  it('refuses an instance without the tag', async () => {
    const { world, pkcs7 } = await tagged({}, {}, 'OtherKey')
    expect((await world.login({ role: 'tag-role', pkcs7: pkcs7() })).body).toEqual({ errors: ['missing tag with key "VaultRole" on the instance'] })
  })

  it('compares the role on the tag with the role as sent, case-sensitively', async () => {
    const { world, pkcs7 } = await tagged()
    expect((await world.login({ role: 'Tag-Role', pkcs7: pkcs7() })).body).toEqual({ errors: ['role on the tag is not matching the role supplied'] })
  })

  it('refuses a tag made for another instance', async () => {
    const { world, pkcs7 } = await tagged({}, { instance_id: 'i-00000000000000000' })
    expect((await world.login({ role: 'tag-role', pkcs7: pkcs7() })).body).toEqual({ errors: ['role tag is being used by an unauthorized instance'] })
  })

  it('lets a tag disallow reauthentication', async () => {
    const { world, instance, pkcs7 } = await tagged({}, { disallow_reauthentication: true })
    expect((await world.login({ role: 'tag-role', pkcs7: pkcs7() })).status).toBe(200)
    expect((await world.api('GET', `identity-accesslist/${instance.instance_id}`)).body.data.disallow_reauthentication).toBe(true)
    expect((await world.login({ role: 'tag-role', pkcs7: pkcs7() })).body).toEqual({ errors: ['reauthentication is disabled'] })
  })

  it("accepts a tag whose policies equal the role's (a subset, as the real service checks; the spec says strict)", async () => {
    const { world, pkcs7 } = await tagged({}, { policies: 'dev,ops' })
    const reply = await world.login({ role: 'tag-role', pkcs7: pkcs7() })
    expect(reply.status).toBe(200)
    expect(reply.body.auth.policies).toEqual(['default', 'dev', 'ops'])
  })

  it('refuses a tag whose policies are no longer a subset of the role policies', async () => {
    const { world, pkcs7 } = await tagged({}, { policies: 'ops' })
    await world.api('POST', 'role/tag-role', { policies: 'dev' })
    expect((await world.login({ role: 'tag-role', pkcs7: pkcs7() })).body).toEqual({ errors: ['policies on the role tag must be subset of policies on the role'] })
  })
})
