import fc from 'fast-check'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { beforeAll, describe, expect, it } from 'vitest'
import { createDoppel, type Doppel } from '../../src/features/doppel/doppel.ts'
import { CONTROL_TABLE } from '../../src/features/doppel/control-table.ts'
import { classifyRequest, type Surface } from '../../src/features/doppel/route-request.ts'
import { TenantRegistry } from '../../src/features/tenants/index.ts'
import { createRequestGuard } from '../../src/faces/server/request-guard.ts'
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

  it("refuses without a token exactly what the router's owner keeps behind it, and never lets the metadata service answer", async () => {
    await fc.assert(
      fc.asyncProperty(request, async ({ listener, host, prefix, path, query, method, authorization, tenants, exposeImds }) => {
        // PUT only where it changes nothing: the metadata token.
        if (method === 'PUT' && !path.startsWith('/latest/')) return
        const target = prefix + path.replace('INSTANCE', instance) + query
        const headers = { host, ...(authorization && { authorization }) }
        const guard = createRequestGuard(doppel, beyondLoopback, { exposeImds }, { surface: listener, tenants })
        const refused = guard({ method, url: target, headers } as unknown as IncomingMessage, response)
        const guardRefuses = refused?.status === 401

        // The router, as the server would call it with the URL the node adapter builds.
        const url = new URL(`http://${host}${target}`)
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
      }),
      { numRuns: 400 },
    )
  })
})
