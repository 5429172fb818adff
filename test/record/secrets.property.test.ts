// Any secret, in any place the list names (a header, a query parameter, a JSON field at any depth, a form
// field), echoed or not by the answer, is absent from the scenario, which the engine still accepts.
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { stringify } from 'yaml'
import { type Exchange, buildScenario, SECRET_HEADERS } from '../../src/faces/record/index.ts'
import { parseScenario } from '../../src/faces/scenario/index.ts'
const secret = fc.stringMatching(/^[A-Za-z0-9+/=_.~-]{4,40}$/).map((value) => `S3cr3t${value}`)
const queryNames = fc.constantFrom('X-Amz-Signature', 'X-Amz-Security-Token', 'X-Amz-Credential', 'token', 'access_token', 'api_key', 'Signature')
const bodyKeys = fc.constantFrom('secret_key', 'secret_access_key', 'password', 'client_token', 'session_token', 'token', 'nonce', 'role_tag', 'hmac_key', 'pkcs7', 'signature')
/** Where the secret sits in a JSON body: a path of keys and list positions ending at a secret key. */
const depth = fc.array(fc.oneof(fc.constantFrom('data', 'attributes', 'auth', 'items'), fc.constant(0)), { maxLength: 4 })

type Place = { kind: 'header'; name: string } | { kind: 'query'; name: string } | { kind: 'json'; path: (string | number)[]; key: string } | { kind: 'form'; key: string }
const place: fc.Arbitrary<Place> = fc.oneof(
  fc.constantFrom(...SECRET_HEADERS).map((name) => ({ kind: 'header' as const, name })),
  queryNames.map((name) => ({ kind: 'query' as const, name })),
  fc.tuple(depth, bodyKeys).map(([path, key]) => ({ kind: 'json' as const, path, key })),
  bodyKeys.map((key) => ({ kind: 'form' as const, key })),
)

function nest(path: (string | number)[], key: string, value: string): unknown {
  let out: unknown = { [key]: value }
  for (const step of [...path].reverse()) out = typeof step === 'number' ? [out] : { [step]: out }
  return out
}

function exchangeWith(where: Place, value: string, echoed: boolean): Exchange {
  const headers: [string, string][] = [['x-service-token', 'root']]
  let target = '/v1/auth/cloud/role/web'
  let body = Buffer.alloc(0)
  if (where.kind === 'header') headers.push([where.name, where.name === 'authorization' ? `Bearer ${value}` : value])
  if (where.kind === 'query') target += `?list=true&${where.name}=${encodeURIComponent(value)}`
  if (where.kind === 'json') {
    headers.push(['content-type', 'application/json'])
    body = Buffer.from(JSON.stringify(nest(where.path, where.key, value)))
  }
  if (where.kind === 'form') {
    headers.push(['content-type', 'application/x-www-form-urlencoded'])
    body = Buffer.from(`a=1&${where.key}=${encodeURIComponent(value)}`)
  }
  const answer = echoed ? { data: { echoed: value, nested: [{ value }] } } : { data: {} }
  return { method: 'POST', target, requestHeaders: headers, requestBody: body, status: 200, responseHeaders: [['content-type', 'application/json']], responseBody: Buffer.from(JSON.stringify(answer)) }
}

test('no secret reaches the scenario, wherever the client put it', () => {
  fc.assert(
    fc.property(place, secret, fc.boolean(), (where, value, echoed) => {
      const scenario = buildScenario([exchangeWith(where, value, echoed)], { name: 'secrets' })
      const text = stringify(scenario, { lineWidth: 0, aliasDuplicateObjects: false })
      expect(text).not.toContain(value)
      expect(text).not.toContain(encodeURIComponent(value))
      expect(() => parseScenario(text, 'secrets.yaml')).not.toThrow()
    }),
    { numRuns: 300 },
  )
}, 60_000)
