import { expect } from 'vitest'
import type { Doppel } from '../../src/features/doppel/index.ts'
import { createDoppel, SnapshotError } from '../../src/index.ts'
import type { Instance, Principal } from '../../src/services/fake-cloud/index.ts'
import { aws4LoginData, BASE, loginWorld, type LoginWorld } from '../cloud-auth/login-setup.ts'
import { deprecateBody, publish, v2, versionPath } from '../registry/registry-client.ts'

/** An emulator holding at least one record of every kind a snapshot carries, built through the public faces. */
export interface RichWorld extends LoginWorld {
  instance: Instance
  alice: Principal
  ec2Token: string
  iamToken: string
  imdsToken: string
  registryToken: string
}

function ok<T extends { status: number; body?: unknown }>(what: string, reply: T): T {
  if (reply.status >= 300) throw new Error(`${what} answered ${reply.status}: ${JSON.stringify(reply.body)}`)
  return reply
}

export async function richWorld(seed = 7): Promise<RichWorld> {
  const world = loginWorld({ seed })
  const { doppel, cloud, api } = world
  const instance = cloud.createInstance({ ami_id: 'ami-0abc1234', tags: { team: 'web' }, iam_role_name: 'web-role' })
  const alice = cloud.createPrincipal({ type: 'user', name: 'alice', path: '/people/' })
  cloud.createPrincipal({ type: 'role', name: 'deployer', max_session_duration: 7200 })
  cloud.createPrincipal({ type: 'role', name: 'reader', account_id: '111122223333' })
  const bob = cloud.createPrincipal({ type: 'user', name: 'bob', path: '/people/', account_id: '111122223333' })

  ok('ec2 role', await api('POST', 'role/web', { auth_type: 'ec2', bound_ami_id: instance.ami_id, token_ttl: '3h' }))
  ok('tagged role', await api('POST', 'role/tagged', { auth_type: 'ec2', bound_ami_id: instance.ami_id, role_tag: 'VaultRole' }))
  ok('iam role', await api('POST', 'role/people', { auth_type: 'iam', bound_iam_principal_arn: ['arn:aws:iam::123456789012:user/people/*', 'arn:aws:iam::111122223333:user/people/*'] }))
  ok('config/client', await api('POST', 'config/client', { max_retries: 5 }))
  ok('config/identity', await api('POST', 'config/identity', { iam_alias: 'unique_id', ec2_metadata: ['ami_id'] }))
  ok('tidy access list', await api('POST', 'config/tidy/identity-accesslist', { safety_buffer: 3600 }))
  ok('tidy deny list', await api('POST', 'config/tidy/roletag-denylist', { safety_buffer: 7200, disable_periodic_tidy: true }))
  const pem = cloud.builtInCertificates().pkcs7[0]!
  ok('config/certificate', await api('POST', 'config/certificate/extra', { aws_public_cert: pem, type: 'pkcs7' }))
  ok('config/sts', await api('POST', 'config/sts/111122223333', { sts_role: 'arn:aws:iam::111122223333:role/reader' }))
  const tag = ok('role tag', await api('POST', 'role/tagged/tag', { policies: 'p' })).body.data.tag_value as string
  ok('deny list', await api('POST', `roletag-denylist/${encodeURIComponent(tag)}`))

  const ec2 = ok('ec2 login', await world.login({ role: 'web', pkcs7: cloud.identityDocument(instance.instance_id, 'rsa2048'), nonce: 'first' }))
  const iam = ok('iam login', await world.login({ role: 'people', ...aws4LoginData(world, alice) }))
  // Through config/sts: the method assumes the account's role and keeps the session.
  ok('iam login in another account', await world.login({ role: 'people', ...aws4LoginData(world, bob) }))

  const enable = await doppel.fetch(`${BASE}/v1/sys/auth/team/aws`, {
    method: 'POST',
    headers: { 'X-Service-Token': 'root' },
    body: JSON.stringify({ type: 'aws', description: 'second mount' }),
  })
  if (enable.status !== 204) throw new Error(`sys/auth answered ${enable.status}`)
  ok('role in the second mount', await call(doppel, 'POST', '/v1/auth/team/aws/role/other', { auth_type: 'ec2', bound_ami_id: 'ami-0abc1234' }))
  ok('token role', await call(doppel, 'POST', '/v1/auth/token/roles/ops', { allowed_policies: 'ops', token_period: '1h', path_suffix: 'v1x' }))
  ok('token against the role', await call(doppel, 'POST', '/v1/auth/token/create/ops', {}))

  await publish(doppel, 'acme', 'vpc', 'aws', '1.0.0', { 'main.tf': 'variable "cidr" {\n  default = "10.0.0.0/16"\n}\n', 'README.md': '# vpc\n' })
  await publish(doppel, 'acme', 'vpc', 'aws', '1.1.0')
  ok('deprecate', await v2(doppel, 'PATCH', versionPath('acme', 'vpc', 'aws', '1.0.0'), { body: deprecateBody() }))
  const registryToken = (await json(await doppel.fetch(`${BASE}/_doppel/registry/tokens`, { method: 'POST', body: JSON.stringify({ organizations: ['acme'] }) }))).token as string

  const imdsToken = await (
    await doppel.fetch(`${BASE}/_doppel/cloud/imds/${instance.instance_id}/latest/api/token`, {
      method: 'PUT',
      headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '21600' },
    })
  ).text()
  await doppel.fetch(`${BASE}/_doppel/cloud/imds/${instance.instance_id}/latest/meta-data/instance-id`, { headers: { 'X-aws-ec2-metadata-token': imdsToken } })
  cloud.useInstance(instance.instance_id)
  // DSA signatures are randomised (by node:crypto, not the emulator): served ones are kept and carried.
  cloud.identityDocument(instance.instance_id, 'pkcs7')

  doppel.faults.add({ method: 'GET', path: '/api/v2/organizations/:org/registry-modules', status: 503, times: 3 })
  doppel.faults.add({ method: 'GET', path: '/v1/auth/cloud/role/nothing', latency_ms: 1 })
  const fixture = await call(doppel, 'POST', '/_doppel/fixtures', 'version: 1\ncloud:\n  principals:\n    - { type: user }\n')
  if (fixture.status !== 201) throw new Error(`fixtures answered ${fixture.status}`)
  doppel.clock.advance('1h')
  return {
    ...world,
    instance,
    alice,
    ec2Token: ec2.body.auth.client_token,
    iamToken: iam.body.auth.client_token,
    imdsToken,
    registryToken,
  }
}

async function json(response: Response): Promise<any> {
  return JSON.parse(await response.text())
}

/** One request with the root token; body JSON unless a string. */
export async function call(doppel: Doppel, method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  const response = await doppel.fetch(`${BASE}${path}`, {
    method,
    headers: { 'X-Service-Token': 'root' },
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  })
  return { status: response.status, text: await response.text() }
}

/**
 * Restores `snapshot` into a fresh emulator holding one record of its own: the emulator when it restored;
 * undefined when it was refused, after checking that the refusal was a SnapshotError that changed nothing.
 */
export function restoreOrRefuse(snapshot: unknown): Doppel | undefined {
  const target = createDoppel({ seed: 2 })
  target.cloud.createPrincipal({ type: 'user', name: 'kept' })
  const before = JSON.stringify(target.snapshot().domains)
  try {
    target.restore(snapshot)
  } catch (error) {
    expect(error).toBeInstanceOf(SnapshotError)
    expect(JSON.stringify(target.snapshot().domains)).toBe(before)
    return undefined
  }
  return target
}
