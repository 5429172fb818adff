/**
 * Restore with one value of a good snapshot replaced by a hostile one of the same kind (a time out of the
 * clock's range, a huge or negative count, a key that is not base64, a name no record has): refused with a
 * SnapshotError that changed nothing, or accepted and then no answer is a 5xx (issue 29).
 */
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { BASE } from '../cloud-auth/login-setup.ts'
import { restoreOrRefuse, richWorld } from './rich-world.ts'

type Path = (string | number)[]

/** Paths to every number and string in a JSON document. */
function scalarPaths(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  if (Array.isArray(value)) value.forEach((item, index) => scalarPaths(item, [...at, index], out))
  else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) scalarPaths(item, [...at, key], out)
  else if (typeof value === 'number' || typeof value === 'string') out.push(at)
  return out
}

function replaced(document: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(document) as any
  let node = copy
  for (const key of path.slice(0, -1)) node = node[key]
  node[path.at(-1)!] = value
  return copy
}

const HOSTILE_NUMBERS = [-1, -2_208_988_800_000, 2 ** 53 - 1, -(2 ** 53 - 1), 253_402_300_800_000, 2 ** 31, 1e15]
const HOSTILE_STRINGS = ['', 'x', 'AAAA', 'not a time', '1900-01-01T00:00:00Z', 'arn:aws:iam::123456789012:role/nobody', 'i-00000000000000000', 'auth/nowhere/']

describe('restore with one number or string of a good snapshot made hostile', () => {
  let good: any
  let numbers: Path[]
  let strings: Path[]
  let instanceId: string
  beforeAll(async () => {
    const world = await richWorld()
    world.cloud.createInstance({ ami_id: 'ami-0abc1234', key_name: 'deploy' })
    instanceId = world.instance.instance_id
    good = { ...JSON.parse(JSON.stringify(world.doppel.snapshot())), faults: [] }
    const all = scalarPaths(good).filter((path) => path[0] !== 'doppel_snapshot')
    numbers = all.filter((path) => typeof path.reduce((node: any, key) => node[key], good) === 'number')
    strings = all.filter((path) => typeof path.reduce((node: any, key) => node[key], good) === 'string')
  })

  it('is refused and changes nothing, or every later answer is below 500', async () => {
    const hostile = fc.oneof(
      fc.tuple(fc.constant('number' as const), fc.nat(), fc.constantFrom(...HOSTILE_NUMBERS)),
      fc.tuple(fc.constant('string' as const), fc.nat(), fc.constantFrom(...HOSTILE_STRINGS)),
    )
    await fc.assert(
      fc.asyncProperty(hostile, async ([kind, pick, value]) => {
        const paths = kind === 'number' ? numbers : strings
        const path = paths[pick % paths.length]!
        const mutated = replaced(good, path, value)
        const target = restoreOrRefuse(mutated)
        if (target === undefined) return
        const root = { 'X-Service-Token': 'root', Authorization: 'Bearer root' }
        const saved = good.domains
        const imds = `/_doppel/cloud/imds/${instanceId}/latest`
        const tokenResponse = await target.fetch(`${BASE}${imds}/api/token`, { method: 'PUT', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '21600' } })
        expect(tokenResponse.status, `IMDS PUT api/token after ${path.join('.')} = ${JSON.stringify(value)}`).toBeLessThan(500)
        const imdsToken = await tokenResponse.text()
        const requests: [string, string, Record<string, string>][] = [
          ...['/v1/auth/cloud/roles?list=true', '/v1/auth/cloud/role/web', '/v1/auth/cloud/identity-accesslist?list=true', '/v1/sys/auth', '/_doppel/state', '/_doppel/snapshot', '/_doppel/clock'].map(
            (path): [string, string, Record<string, string>] => ['GET', path, root],
          ),
          ...['/v1/auth/cloud/tidy/identity-accesslist', '/v1/auth/cloud/tidy/roletag-denylist'].map((path): [string, string, Record<string, string>] => ['POST', path, root]),
          ...saved.tokens.tokens.flatMap((token: { id: string }): [string, string, Record<string, string>][] => [
            ['GET', '/v1/auth/token/lookup-self', { 'X-Service-Token': token.id }],
            ['POST', '/v1/auth/token/renew-self', { 'X-Service-Token': token.id }],
          ]),
          ...saved['fake-cloud'].instances.flatMap((instance: { instance_id: string }): [string, string, Record<string, string>][] =>
            ['meta-data/public-keys/0/openssh-key', 'meta-data/iam/security-credentials/web-role', 'dynamic/instance-identity/pkcs7', 'dynamic/instance-identity/document'].map((leaf) => [
              'GET',
              `/_doppel/cloud/imds/${instance.instance_id}/latest/${leaf}`,
              { 'X-aws-ec2-metadata-token': imdsToken },
            ]),
          ),
          ['GET', '/_doppel/cloud/instances', root],
          ['GET', '/api/registry/v1/modules/acme/vpc/aws/versions', root],
          ['GET', '/api/registry/v1/modules/acme/vpc/aws/1.0.0/download', root],
          ['GET', '/api/v2/organizations/acme/registry-modules', root],
          ['GET', '/api/v2/organizations/acme/registry-modules/private/acme/vpc/aws/version?module_version=1.0.0', root],
        ]
        for (const [method, url, headers] of requests) {
          const response = await target.fetch(`${BASE}${url}`, { method, headers })
          expect(response.status, `${method} ${url} after ${path.join('.')} = ${JSON.stringify(value)}`).toBeLessThan(500)
        }
      }),
      { numRuns: 400 },
    )
  })
})
