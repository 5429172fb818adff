// A client session through a recording or comparing proxy: the calls a user's tests would make against
// a real server, with the fake cloud's control API (on a doppel serve upstream) for instances and principals.
import { signedCallerIdentity } from '../../src/faces/scenario/index.ts'
export interface SessionOptions {
  /** Which identity-document form the ec2 login sends. */
  ec2Format?: 'rsa2048' | 'pkcs7' | 'identity+signature'
  /** Leave out the registry part. */
  authOnly?: boolean
  /** Leave out the calls that use the ec2 login's token and access-list entry. */
  skipLoginFollowUps?: boolean
}

export async function runClientSession(base: string, options: SessionOptions = {}): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {}
  const call = async (name: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(base + path, {
      method,
      headers: { 'X-Service-Token': 'root', ...(body !== undefined && { 'Content-Type': 'application/json' }), ...headers },
      ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    })
    statuses[name] = response.status
    const text = await response.text()
    return text ? (JSON.parse(text) as Record<string, any>) : {}
  }
  await call('role-write', 'POST', '/v1/auth/cloud/role/web', { auth_type: 'ec2', bound_ami_id: 'ami-0abc1234', token_ttl: '1h', token_policies: 'web' })
  await call('role-read', 'GET', '/v1/auth/cloud/role/web')
  await call('role-list', 'LIST', '/v1/auth/cloud/roles')
  await call('role-404', 'GET', '/v1/auth/cloud/role/nobody')
  const instance = await call('instance', 'POST', '/_doppel/cloud/instances', { ami_id: 'ami-0abc1234' })
  let login: Record<string, unknown>
  if (options.ec2Format === 'identity+signature') {
    const document = await call('document', 'POST', '/_doppel/cloud/identity-document', { instance_id: instance.instance_id, format: 'document' })
    const signature = await call('signature', 'POST', '/_doppel/cloud/identity-document', { instance_id: instance.instance_id, format: 'signature' })
    login = { role: 'web', identity: Buffer.from(document.value).toString('base64'), signature: String(signature.value).replace(/\n/g, '') }
  } else {
    const document = await call('document', 'POST', '/_doppel/cloud/identity-document', { instance_id: instance.instance_id, format: options.ec2Format ?? 'rsa2048' })
    login = { role: 'web', pkcs7: String(document.value).replace(/\n/g, '') }
  }
  const ec2 = await call('ec2-login', 'POST', '/v1/auth/cloud/login', login, { 'X-Service-Token': '' })
  if (ec2.auth && !options.skipLoginFollowUps) {
    await call('lookup-self', 'GET', '/v1/auth/token/lookup-self', undefined, { 'X-Service-Token': ec2.auth.client_token })
    await call('access-list', 'GET', `/v1/auth/cloud/identity-accesslist/${instance.instance_id}`)
  }
  const user = await call('principal', 'POST', '/_doppel/cloud/principals', { type: 'user', name: 'deployer' })
  await call('iam-role', 'POST', '/v1/auth/cloud/role/deployer', { auth_type: 'iam', bound_iam_principal_arn: user.arn })
  const clock = await call('clock', 'GET', '/_doppel/clock')
  const iam = signedCallerIdentity({ credentials: user as never, now: new Date(clock.now), serverIdHeader: 'X-Service-Cloud-IAM-Server-ID' })
  await call('iam-login', 'POST', '/v1/auth/cloud/login', { role: 'deployer', ...iam }, { 'X-Service-Token': '' })
  await call('tidy', 'POST', '/v1/auth/cloud/tidy/identity-accesslist', { safety_buffer: '1h' })
  if (!options.skipLoginFollowUps) {
    await call('instance-state', 'POST', `/_doppel/cloud/instances/${instance.instance_id}/state`, { state: 'stopped' })
    await call('ec2-login-stopped', 'POST', '/v1/auth/cloud/login', login, { 'X-Service-Token': '' })
  }
  await call('principal-gone', 'DELETE', '/_doppel/cloud/principals/deployer')
  if (options.authOnly) return statuses
  await call('fixtures', 'POST', '/_doppel/fixtures', {
    version: 1,
    registry: {
      organizations: ['acme'],
      // Fields a fixture leaves out are the faker's, different on every replay: the recording pins them here.
      modules: [
        {
          organization: 'acme',
          name: 'vpc',
          provider: 'aws',
          description: 'A VPC',
          versions: [
            { version: '1.0.0', readme: '# vpc' },
            { version: '1.1.0', readme: '# vpc' },
          ],
        },
      ],
    },
  })
  const module = '/api/v2/organizations/acme/registry-modules/private/acme/vpc/aws'
  const jsonApi = { 'Content-Type': 'application/vnd.api+json', Authorization: 'Bearer root', 'X-Service-Token': '' }
  await call('deprecate', 'PATCH', `${module}/1.0.0`, JSON.stringify({ data: { type: 'module-versions', attributes: { deprecation: { 'deprecated-status': 'Deprecated', reason: 'CVE', link: 'https://example.com/a' } } } }), jsonApi)
  await call('read-version', 'GET', '/api/registry/v1/modules/acme/vpc/aws/1.0.0', undefined, { Authorization: 'Bearer root', 'X-Service-Token': '' })
  return statuses
}
