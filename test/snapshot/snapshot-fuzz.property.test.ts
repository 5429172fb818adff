import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { BASE } from '../cloud-auth/login-setup.ts'
import { restoreOrRefuse, richWorld } from './rich-world.ts'

/** Every path to a value in a JSON document, as key lists. */
function paths(value: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at)
  if (Array.isArray(value)) value.forEach((item, index) => paths(item, [...at, index], out))
  else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) paths(item, [...at, key], out)
  return out
}

function replaced(document: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value
  const copy = structuredClone(document) as any
  let node = copy
  for (const key of path.slice(0, -1)) node = node[key]
  node[path.at(-1)!] = value
  return copy
}

describe('restore with any one value of a good snapshot replaced', () => {
  let good: unknown
  let all: (string | number)[][]
  beforeAll(async () => {
    // Without the rich world's armed faults, which answer 503 on purpose.
    good = { ...JSON.parse(JSON.stringify((await richWorld()).doppel.snapshot())), faults: [] }
    all = paths(good)
  })

  it('either restores or refuses with a SnapshotError that changed nothing; never another error or a 5xx after', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.jsonValue({ maxDepth: 3 }), async (pick, value) => {
        const mutated = replaced(good, all[pick % all.length]!, value)
        const target = restoreOrRefuse(mutated)
        if (target === undefined) return
        const token = (good as any).domains.tokens.tokens[0].id as string
        const reads: [string, Record<string, string>][] = [
          ...['/v1/auth/cloud/roles?list=true', '/v1/auth/cloud/role/web', '/v1/auth/cloud/config/client', '/v1/sys/auth', '/_doppel/faults', '/_doppel/state'].map(
            (path): [string, Record<string, string>] => [path, { 'X-Service-Token': 'root' }],
          ),
          ['/v1/auth/token/lookup-self', { 'X-Service-Token': token }],
          ['/api/registry/v1/modules/acme/vpc/aws/versions', { Authorization: 'Bearer root' }],
          ['/api/v2/organizations/acme/registry-modules', { Authorization: 'Bearer root' }],
        ]
        for (const [path, headers] of reads) {
          const response = await target.fetch(`${BASE}${path}`, { headers })
          expect(response.status, path).toBeLessThan(500)
        }
      }),
      { numRuns: 300 },
    )
  })
})
