import fc from 'fast-check'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { beforeAll, describe, expect, it } from 'vitest'
import { createDoppel, type Doppel, CONTROL_TABLE, classifyRequest, type Surface } from '../../src/features/doppel/index.ts'
import { TenantRegistry } from '../../src/features/tenants/index.ts'
import { createRequestGuard } from '../../src/faces/server/index.ts'
import { controlAccess } from '../../src/services/control/index.ts'
import { AWS_FACES } from '../../src/services/fake-cloud/index.ts'

// The server's guard, beyond loopback and without a token, against the router's owner of the same
// request: the guard refuses exactly what that owner's rule keeps behind the control token, and no
// request the guard lets through is answered by the metadata service (it checks no caller).

const HOSTS = ['127.0.0.1:8200', 'localhost', 'doppel.lan:8200', '169.254.169.254', '169.254.169.254:80', '169.254.169.254.', '0xa9fea9fe', '[fd00:ec2::254]', 'sts.amazonaws.com', 'STS.AMAZONAWS.COM', 'ec2.eu-west-1.amazonaws.com', 'foo.amazonaws.com']
const PATHS = [
  '/latest/meta-data/iam/security-credentials/',
  '/latest/api/token',
  '/x/%2e%2e/latest/meta-data/',
  '/',
  '/_doppel',
  '/_doppelganger',
  '/_doppel/health',
  '/_doppel/state',
  '/_doppel/ui/',
  '/_doppel/ui/../state',
  '/_doppel/ui/%2e%2e/journal',
  '/_doppel/cloud/',
  '/_doppel/cloud/instances',
  '/_doppel/cloud/sts/',
  '/_doppel/cloud/imds/INSTANCE/latest/meta-data/iam/security-credentials/',
  '/v1/auth/cloud/role/r',
  '/v1/../_doppel/state',
  '/api/v2/ping',
]
const QUERIES = ['', '?Action=GetCallerIdentity&Version=2011-06-15', '?X-Amz-Credential=AKIAEXAMPLE%2F20260101%2Fus-east-1%2Fsts%2Faws4_request']
const AUTHORIZATIONS = [undefined, 'AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE/20260101/us-east-1/sts/aws4_request, SignedHeaders=host, Signature=00', 'Bearer nobody']

type Generated = typeof request extends fc.Arbitrary<infer T> ? T : never

const request = fc.record({
  listener: fc.constantFrom<Surface>('main', 'cloud'),
  host: fc.constantFrom(...HOSTS),
  prefix: fc.constantFrom('', '/t/a', '/t/B!'),
  path: fc.constantFrom(...PATHS),
  query: fc.constantFrom(...QUERIES),
  method: fc.constantFrom('GET', 'HEAD', 'PUT'),
  authorization: fc.constantFrom(...AUTHORIZATIONS),
  tenants: fc.boolean(),
  exposeImds: fc.boolean(),
})

describe('the access decision beyond loopback', () => {
  let doppel: Doppel
  let registry: TenantRegistry
  let instance: string
  beforeAll(async () => {
    doppel = createDoppel({ seed: 5, clock: { frozen: true } })
    registry = new TenantRegistry(doppel, {})
    instance = doppel.cloud.createInstance({ iam_role_name: 'web-role' }).instance_id
  })
  const beyondLoopback = { address: () => ({ address: '0.0.0.0', family: 'IPv4', port: 8200 }) }
  const response = { setHeader: () => undefined } as unknown as ServerResponse

  /** The guard's decision against the router's owner's rule, and no metadata answer past the guard. */
  async function check({ listener, host, target, method, authorization, tenants, exposeImds }: Omit<Generated, 'prefix' | 'path' | 'query'> & { target: string }): Promise<void> {
    let url: URL
    try {
      url = new URL(`http://${host}${target}`)
    } catch {
      return // No router sees it: the node adapter cannot build its URL.
    }
    const headers = { host, ...(authorization && { authorization }) }
    const guard = createRequestGuard(doppel, beyondLoopback, { exposeImds }, { surface: listener, tenants })
    const rawHeaders = Object.entries(headers).flat()
    const refused = guard({ method, url: target, headers, rawHeaders } as unknown as IncomingMessage, response)
    const guardRefuses = refused?.status === 401

    // The router's owner, as the server would call it with the URL the node adapter builds.
    const owner = classifyRequest({ listener, url, authorization: () => authorization, tenants })
    const rule =
      owner.face !== undefined && owner.answer === 'fake-cloud'
        ? !AWS_FACES[owner.face].checksCallers && !exposeImds
        : owner.answer === 'control'
          ? controlAccess(CONTROL_TABLE, method, owner.path) !== 'open'
          : owner.access === 'control'
    expect(guardRefuses, `${method} ${target} Host ${host} on ${listener}`).toBe(rule)

    const answer = await (tenants ? registry : doppel).handle(new Request(url, { method, ...(authorization && { headers: { authorization } }) }), { surface: listener })
    if (answer.headers.get('server') === 'EC2ws' && !exposeImds) expect(guardRefuses, `metadata answered ${method} ${target} Host ${host} on ${listener}`).toBe(true)
  }

  it("refuses without a token exactly what the router's owner keeps behind it, and never lets the metadata service answer", async () => {
    await fc.assert(
      fc.asyncProperty(request, async ({ prefix, path, query, method, ...rest }) => {
        // PUT only where it changes nothing: the metadata token.
        if (method === 'PUT' && !path.startsWith('/latest/')) return
        await check({ ...rest, method, target: prefix + path.replace('INSTANCE', instance) + query })
      }),
      { numRuns: 400 },
    )
  })

  it('reads any Host and target as the router does (the URL parser folds hosts and dot segments)', async () => {
    const hostText = fc.string({ unit: fc.constantFrom('a', 'S', 't', 's', '.', '-', ':', '0', '1', '2', '5', '4', '6', '9', 'x', '[', ']', '%', '２', 'é'), minLength: 1, maxLength: 18 })
    const host = fc.oneof(hostText, fc.constantFrom(...HOSTS).chain((known) => fc.constantFrom(known, known.toUpperCase(), `${known}.`, `${known}:0080`)))
    const target = fc
      .string({ unit: fc.constantFrom('/', '_doppel', '/cloud', '/imds', 'latest', 't', '.', '%2e', '%2E', '\\', '?', '#', ' ', 'é', 'a', '/v1', '='), maxLength: 12 })
      .map((tail) => `/${tail}`)
    await fc.assert(
      fc.asyncProperty(request, host, target, async ({ listener, method, authorization, tenants, exposeImds }, host, target) => {
        await check({ listener, host, target, method: method === 'PUT' ? 'GET' : method, authorization, tenants, exposeImds })
      }),
      { numRuns: 600 },
    )
  })
})
