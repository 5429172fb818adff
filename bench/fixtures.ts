import { createDoppel, type Doppel } from '../src/index.ts'
import { seedRegistry } from '../src/services/registry/index.ts'
import { authProfile } from '../src/services/cloud-auth/index.ts'
import { signedCallerIdentity } from '../src/faces/scenario/index.ts'
export const AUTH = 'http://bench.doppel.test/v1/auth/cloud'
export const ROOT = { 'X-Service-Token': 'root' }
export const JSON_API = { Authorization: 'Bearer root', 'Content-Type': 'application/vnd.api+json' }

export interface Prepared {
  doppel: Doppel
  ec2Login: string
  iamLogin: string
  deprecate: string
  versionRead: string
  patchPath: string
}

/**
 * An emulator with one ec2 role and instance, one iam role and principal, one module version; plus the
 * request bodies the benchmarks replay. Repeated ec2 logins send the same nonce, as a real client does.
 */
export async function prepare(origin = 'http://bench.doppel.test'): Promise<Prepared> {
  const doppel = createDoppel({ seed: 1 })
  const instance = doppel.cloud.createInstance({ ami_id: 'ami-0bbbb000000000001', state: 'running' })
  const principal = doppel.cloud.createPrincipal({ type: 'user', name: 'bench-user' })
  const send = async (url: string, init: RequestInit) => {
    const res = await doppel.fetch(url, init)
    if (res.status >= 300) throw new Error(`bench set-up failed: ${init.method} ${url} → ${res.status} ${await res.text()}`)
  }
  await send(`${AUTH}/role/ec2-bench`, { method: 'POST', headers: ROOT, body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: instance.ami_id }) })
  await send(`${AUTH}/role/bench-user`, { method: 'POST', headers: ROOT, body: JSON.stringify({ auth_type: 'iam', bound_iam_principal_arn: principal.arn }) })
  seedRegistry(doppel, { organizations: ['acme'], modules: [{ organization: 'acme', name: 'vpc', provider: 'aws', versions: ['1.0.0'] }] })
  const pkcs7 = doppel.cloud.identityDocument(instance.instance_id, 'rsa2048')
  const iam = signedCallerIdentity({
    credentials: principal,
    now: doppel.clock.now(),
    serverIdHeader: authProfile(doppel.profile).serverIdHeader,
  })
  void origin
  return {
    doppel,
    ec2Login: JSON.stringify({ role: 'ec2-bench', pkcs7, nonce: 'bench-nonce' }),
    iamLogin: JSON.stringify({ role: 'bench-user', ...iam }),
    deprecate: JSON.stringify({
      data: { type: 'module-versions', attributes: { deprecation: { 'deprecated-status': 'Deprecated', reason: 'bench', link: 'https://example.com' } } },
    }),
    patchPath: '/api/v2/organizations/acme/registry-modules/private/acme/vpc/aws/1.0.0',
    versionRead: '/api/registry/v1/modules/acme/vpc/aws/1.0.0',
  }
}

/** The five kinds of request the server benchmark sends. */
export type Work = 'GET role' | 'POST role' | 'registry GET' | 'ec2 login' | 'iam login'
export const WORKS: Work[] = ['GET role', 'POST role', 'registry GET', 'ec2 login', 'iam login']

export interface Load {
  method: string
  path: string
  headers?: Record<string, string>
  body?: string
}

/** Each work as one request, the same over HTTP and in process. */
export function loads(p: Omit<Prepared, 'doppel'>): Record<Work, Load> {
  const root = { 'x-service-token': 'root' }
  const json = { 'content-type': 'application/json' }
  return {
    'GET role': { method: 'GET', path: '/v1/auth/cloud/role/ec2-bench', headers: root },
    'POST role': { method: 'POST', path: '/v1/auth/cloud/role/load-bench', headers: { ...root, ...json }, body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-0bbbb000000000001' }) },
    'registry GET': { method: 'GET', path: p.versionRead, headers: { authorization: 'Bearer root' } },
    'ec2 login': { method: 'POST', path: '/v1/auth/cloud/login', headers: json, body: p.ec2Login },
    'iam login': { method: 'POST', path: '/v1/auth/cloud/login', headers: json, body: p.iamLogin },
  }
}
