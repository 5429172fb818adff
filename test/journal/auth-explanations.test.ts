import { describe, expect, it } from 'vitest'
import type { Explanation } from '../../src/core/explanation.ts'
import { aws4LoginData, BASE, createEc2Role, loginWorld, type LoginWorld } from '../cloud-auth/login-setup.ts'

// Every refusal of the auth method the specs name: the journal's explanation names the rule that refused
// it and the value doppel saw; the client's answer is the same as without it (the message tests pin those).

function world(options: Parameters<typeof loginWorld>[0] = {}) {
  const w = loginWorld(options)
  const instance = w.cloud.createInstance({ iam_role_name: 'web-app' })
  const pkcs7 = () => w.cloud.identityDocument(instance.instance_id, 'rsa2048')
  return { w, instance, pkcs7 }
}

/** The last journal entry's explanation, after checking that the answer was a refusal. */
function lastExplanation(w: LoginWorld, status = 400): Explanation {
  const entry = w.doppel.journal.entries().at(-1)!
  expect(entry.status, JSON.stringify(entry.response?.body)).toBe(status)
  expect(entry.explanation, 'the refusal carries an explanation').toBeDefined()
  return entry.explanation!
}

describe('ec2 login: every bound_* constraint', () => {
  const cases: { bound: string; value: string[]; seen: (i: ReturnType<typeof world>['instance']) => string }[] = [
    { bound: 'bound_ami_id', value: ['ami-good'], seen: (i) => i.ami_id },
    { bound: 'bound_account_id', value: ['999999999999'], seen: (i) => i.account_id },
    { bound: 'bound_region', value: ['eu-north-1'], seen: (i) => i.region },
    { bound: 'bound_vpc_id', value: ['vpc-other'], seen: (i) => i.vpc_id },
    { bound: 'bound_subnet_id', value: ['subnet-other'], seen: (i) => i.subnet_id },
    { bound: 'bound_ec2_instance_id', value: ['i-0000000000000000f'], seen: (i) => i.instance_id },
    { bound: 'bound_iam_instance_profile_arn', value: ['arn:aws:iam::123456789012:instance-profile/other'], seen: (i) => i.instance_profile_arn! },
    { bound: 'bound_iam_role_arn', value: ['arn:aws:iam::123456789012:role/other'], seen: (i) => i.iam_role_arn! },
  ]
  it.each(cases)('$bound names the role, the bound and the instance value', async ({ bound, value, seen }) => {
    const { w, instance, pkcs7 } = world()
    await w.api('POST', 'role/web', { auth_type: 'ec2', [bound]: value })
    const reply = await w.login({ role: 'web', pkcs7: pkcs7() })
    expect(reply.status).toBe(400)
    expect(lastExplanation(w)).toEqual({ rule: `role web: ${bound}`, seen: seen(instance), expected: `[${value.join(', ')}]` })
  })
})

describe('ec2 login: instance, nonce and signature refusals', () => {
  it('a stopped instance: the state seen and running expected', async () => {
    const { w, instance, pkcs7 } = world()
    await createEc2Role(w, 'web', instance)
    w.cloud.setInstanceState(instance.instance_id, 'stopped')
    expect((await w.login({ role: 'web', pkcs7: pkcs7() })).body.errors[0]).toBe("failed to verify instance ID: instance is not in 'running' state")
    expect(lastExplanation(w)).toMatchObject({ rule: 'instance state', seen: `${instance.instance_id} is stopped`, expected: 'running' })
  })

  it('a nonce mismatch: the rule, never the nonces themselves', async () => {
    const { w, instance, pkcs7 } = world()
    await createEc2Role(w, 'web', instance)
    expect((await w.login({ role: 'web', pkcs7: pkcs7(), nonce: 'first-nonce-secret' })).status).toBe(200)
    await w.login({ role: 'web', pkcs7: pkcs7(), nonce: 'other' })
    const explanation = lastExplanation(w)
    expect(explanation).toMatchObject({ rule: 'client nonce', seen: expect.stringContaining('5 characters') })
    expect(JSON.stringify(w.doppel.journal.entries())).not.toContain('first-nonce-secret')
  })

  it('the pending time under allow_instance_migration: the document time seen, a later one expected', async () => {
    const { w, instance, pkcs7 } = world()
    await createEc2Role(w, 'web', instance, { allow_instance_migration: true })
    await w.login({ role: 'web', pkcs7: pkcs7(), nonce: 'one' })
    await w.login({ role: 'web', pkcs7: pkcs7(), nonce: 'two' })
    expect(lastExplanation(w)).toEqual(expect.objectContaining({ rule: 'pendingTime (allow_instance_migration)', seen: instance.pending_time, expected: `later than ${instance.pending_time}` }))
  })

  it('a disallowed reauthentication', async () => {
    const { w, instance, pkcs7 } = world()
    await createEc2Role(w, 'web', instance, { disallow_reauthentication: true })
    await w.login({ role: 'web', pkcs7: pkcs7() })
    expect((await w.login({ role: 'web', pkcs7: pkcs7() })).body.errors).toEqual(['reauthentication is disabled'])
    expect(lastExplanation(w)).toMatchObject({ rule: 'disallow_reauthentication', seen: expect.stringContaining(instance.instance_id) })
  })

  it('a SHA-1 signature: the algorithm seen and how to allow it', async () => {
    const { w, instance } = world()
    await createEc2Role(w, 'web', instance)
    await w.login({ role: 'web', pkcs7: w.cloud.identityDocument(instance.instance_id, 'pkcs7') })
    expect(lastExplanation(w)).toMatchObject({ rule: 'SHA-1 signatures', seen: expect.stringContaining('DSA-SHA1'), hint: expect.stringContaining('allowSha1') })
    const identity = Buffer.from(w.cloud.identityDocument(instance.instance_id, 'document')).toString('base64')
    await w.login({ role: 'web', identity, signature: w.cloud.identityDocument(instance.instance_id, 'signature') })
    expect(lastExplanation(w)).toMatchObject({ rule: 'SHA-1 signatures', seen: expect.stringContaining('SHA1-RSA') })
  })

  it('an unknown certificate: no trusted certificate verifies the signature', async () => {
    const { w, instance } = world()
    await createEc2Role(w, 'web', instance)
    // The dsa2048 document's signer is not built in (docs/reference: AWS's is not trusted by default).
    await w.login({ role: 'web', pkcs7: w.cloud.identityDocument(instance.instance_id, 'dsa2048').replace(/\n/g, '') })
    expect(lastExplanation(w)).toMatchObject({ rule: 'trusted certificates', seen: expect.stringMatching(/none of the \d+ trusted certificates/) })
  })
})

describe('iam login', () => {
  function iamWorld() {
    const { w } = world()
    const alice = w.cloud.createPrincipal({ type: 'user', name: 'alice' })
    return { w, alice }
  }

  it('bound_iam_principal_arn: the caller ARN seen, the bound ARNs expected', async () => {
    const { w, alice } = iamWorld()
    await w.api('POST', 'role/dev', { auth_type: 'iam', bound_iam_principal_arn: ['arn:aws:iam::123456789012:user/bob'], resolve_aws_unique_ids: false })
    await w.login({ role: 'dev', ...aws4LoginData(w, alice) })
    expect(lastExplanation(w)).toMatchObject({ rule: 'role dev: bound_iam_principal_arn', seen: alice.arn, expected: '[arn:aws:iam::123456789012:user/bob]' })
  })

  it('the server-id header: missing, another value, unsigned', async () => {
    const { w, alice } = iamWorld()
    await w.api('POST', 'role/dev', { auth_type: 'iam', bound_iam_principal_arn: [alice.arn] })
    await w.api('POST', 'config/client', { iam_server_id_header_value: 'vault.example.com' })
    await w.login({ role: 'dev', ...aws4LoginData(w, alice) })
    expect(lastExplanation(w)).toMatchObject({ rule: expect.stringContaining('iam_server_id_header_value'), seen: expect.stringContaining('no X-Service-Cloud-IAM-Server-ID'), expected: 'vault.example.com' })
    await w.login({ role: 'dev', ...aws4LoginData(w, alice, { extraHeaders: { 'X-Service-Cloud-IAM-Server-ID': 'other.example.com' } }) })
    expect(lastExplanation(w)).toMatchObject({ seen: 'other.example.com', expected: 'vault.example.com' })

    // Signed without the header, which is then added: the signed headers lack it.
    const data = aws4LoginData(w, alice)
    const headers = JSON.parse(Buffer.from(data.iam_request_headers!, 'base64').toString())
    headers['X-Service-Cloud-IAM-Server-ID'] = 'vault.example.com'
    await w.login({ role: 'dev', ...data, iam_request_headers: Buffer.from(JSON.stringify(headers)).toString('base64') })
    expect(lastExplanation(w)).toMatchObject({ rule: 'signed headers include x-service-cloud-iam-server-id', seen: expect.stringMatching(/^SignedHeaders=/) })
    expect(lastExplanation(w).hint).toContain('the signed headers lack X-Service-Cloud-IAM-Server-ID')
  })

  it('a credential scope region the global endpoint does not sign for: names both and the settings', async () => {
    const { w, alice } = iamWorld()
    await w.api('POST', 'role/dev', { auth_type: 'iam', bound_iam_principal_arn: [alice.arn] })
    await w.login({ role: 'dev', ...aws4LoginData(w, alice, { region: 'eu-west-1' }) })
    const explanation = lastExplanation(w)
    expect(explanation).toMatchObject({ rule: 'credential scope region', seen: 'eu-west-1', expected: 'us-east-1' })
    expect(explanation.hint).toContain('the global endpoint')
    expect(explanation.hint).toContain('sts_region')
    expect(explanation.hint).toContain('use_sts_region_from_client')
  })

  it('a signature mismatch: the canonical request and string to sign doppel computed', async () => {
    const { w, alice } = iamWorld()
    await w.api('POST', 'role/dev', { auth_type: 'iam', bound_iam_principal_arn: [alice.arn] })
    await w.login({ role: 'dev', ...aws4LoginData(w, alice, { secret: 'not-the-secret' }) })
    const explanation = lastExplanation(w)
    expect(explanation).toMatchObject({ rule: 'sigv4 signature', seen: expect.stringContaining(alice.access_key_id) })
    expect(explanation.details!['canonical request']).toMatch(/^POST\n\/\n\ncontent-length:43\ncontent-type:.*\nhost:sts\.amazonaws\.com\n/s)
    expect(explanation.details!['string to sign']).toMatch(/^AWS4-HMAC-SHA256\n\d{8}T\d{6}Z\n\d{8}\/us-east-1\/sts\/aws4_request\n[0-9a-f]{64}$/)
  })

  it('a stale X-Amz-Date: the date seen and the earliest accepted', async () => {
    const { w, alice } = iamWorld()
    await w.api('POST', 'role/dev', { auth_type: 'iam', bound_iam_principal_arn: [alice.arn] })
    const data = aws4LoginData(w, alice)
    w.doppel.clock.advance('20m')
    await w.login({ role: 'dev', ...data })
    expect(lastExplanation(w)).toMatchObject({ rule: 'X-Amz-Date within 15 minutes of the clock', seen: '20260301T120000Z', expected: '20260301T120500Z or later' })
  })

  it('an unknown access key', async () => {
    const { w, alice } = iamWorld()
    await w.api('POST', 'role/dev', { auth_type: 'iam', bound_iam_principal_arn: [alice.arn] })
    await w.login({ role: 'dev', ...aws4LoginData(w, { ...alice, access_key_id: 'AKIAUNKNOWN000000000' }) })
    expect(lastExplanation(w)).toMatchObject({ rule: 'access key', seen: 'AKIAUNKNOWN000000000, unknown to the fake cloud' })
  })
})

describe('tokens', () => {
  async function loggedIn() {
    const { w, instance, pkcs7 } = world()
    await createEc2Role(w, 'web', instance, { token_ttl: '1h', token_max_ttl: '2h' })
    const token = (await w.login({ role: 'web', pkcs7: pkcs7() })).body.auth.client_token as string
    return { w, instance, token }
  }
  const renew = (w: LoginWorld, token: string) => w.doppel.fetch(`${BASE}/v1/auth/token/renew-self`, { method: 'POST', headers: { 'X-Service-Token': token } })

  it('expired: the expiry time, never the token', async () => {
    const { w, token } = await loggedIn()
    w.doppel.clock.advance('61m')
    expect((await w.lookupSelf(token)).status).toBe(403)
    expect(lastExplanation(w, 403)).toMatchObject({ rule: 'token ttl', seen: 'the token expired at 2026-03-01T13:00:00Z' })
    expect(JSON.stringify(w.doppel.journal.entries())).not.toContain(token)
  })

  it('revoked', async () => {
    const { w, token } = await loggedIn()
    await w.doppel.fetch(`${BASE}/v1/auth/token/revoke-self`, { method: 'POST', headers: { 'X-Service-Token': token } })
    await w.lookupSelf(token)
    expect(lastExplanation(w, 403)).toMatchObject({ rule: 'token', seen: expect.stringContaining('was revoked') })
  })

  it('a management path with a login token or none', async () => {
    const { w, token } = await loggedIn()
    await w.doppel.fetch(`${BASE}/v1/auth/cloud/roles?list=true`, { headers: { 'X-Service-Token': token } })
    expect(lastExplanation(w, 403)).toMatchObject({ rule: 'root token', seen: expect.stringContaining("a login's token") })
    await w.doppel.fetch(`${BASE}/v1/auth/cloud/roles?list=true`)
    expect(lastExplanation(w, 403)).toMatchObject({ rule: 'token', seen: 'no token' })
  })

  it('never issued, and none sent', async () => {
    const { w } = world()
    await w.lookupSelf('hvs.never-issued')
    expect(lastExplanation(w, 403)).toMatchObject({ rule: 'token', seen: expect.stringContaining('never issued') })
    await w.doppel.fetch(`${BASE}/v1/auth/token/lookup-self`)
    expect(lastExplanation(w, 403)).toMatchObject({ rule: 'token', seen: 'no token' })
  })

  it('renewal refused: the instance stopped since login; past the max TTL', async () => {
    const { w, instance, token } = await loggedIn()
    w.cloud.setInstanceState(instance.instance_id, 'stopped')
    expect((await renew(w, token)).status).toBe(400)
    expect(lastExplanation(w)).toMatchObject({ rule: 'instance state', expected: 'running' })
    w.cloud.setInstanceState(instance.instance_id, 'running')
    // The role's max TTL lowered after the login: the token is past it.
    expect((await w.api('POST', 'role/web', { token_ttl: '10m', token_max_ttl: '30m' })).status).toBe(204)
    w.doppel.clock.advance('40m')
    expect((await renew(w, token)).status).toBe(400)
    expect(lastExplanation(w)).toMatchObject({ rule: 'token max_ttl', seen: '2400s since the token was issued', expected: 'under 1800s' })
  })
})
