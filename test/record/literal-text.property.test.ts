import fc from 'fast-check'
import { expect, test } from 'vitest'
import { literalJson, literalText } from '../../src/features/documents/index.ts'
import { buildScenario } from '../../src/faces/record/index.ts'
import { render, type Scope } from '../../src/faces/scenario/shared.ts'
const scope = {} as Scope
// Strings rich in the marker's pieces, so `${{`, `$${{`, `${{}}` and the like come up often.
const markerish = fc.array(fc.constantFrom('$', '{', '}', '${{', '}}', 'a', ' ', "'", '"', '|'), { maxLength: 12 }).map((parts) => parts.join(''))
const text = fc.oneof(markerish, fc.string({ maxLength: 12 }))

test('literal text renders as itself', () => {
  fc.assert(fc.property(text, (value) => {
    expect(render(literalText(value), scope)).toBe(value)
  }), { numRuns: 2000 })
})

test('literal JSON (strings and keys) renders as itself', () => {
  const json = fc.jsonValue({ maxDepth: 3 }).chain((value) => fc.dictionary(text, fc.oneof(text, fc.constant(value)), { maxKeys: 4 }))
  fc.assert(fc.property(json, (value) => {
    expect(render(literalJson(value), scope)).toEqual(value)
  }), { numRuns: 500 })
})

test('a recorded answer and request holding the marker replay as recorded', () => {
  const body = { '${{': 'x ${{ y', plain: '$${{}}', list: ['${{ steps.s1.id }}'] }
  const scenario = buildScenario(
    [
      {
        method: 'POST',
        target: '/v1/auth/cloud/role/web',
        requestHeaders: [['X-Custom', 'a ${{ b']],
        requestBody: Buffer.from(JSON.stringify({ auth_type: 'ec2', 'note ${{': '${{' })),
        status: 200,
        responseHeaders: [['content-type', 'application/json']],
        responseBody: Buffer.from(JSON.stringify(body)),
      },
    ],
    { name: 'marker' },
  ) as unknown as { steps: { request: { headers: Record<string, string>; json: unknown }; expect: { body: unknown } }[] }
  const [step] = scenario.steps
  // A mapping with a `$` key is compared literally (`$eq`).
  expect(render(step!.expect.body, scope)).toEqual({ $eq: body })
  expect(render(step!.request.json, scope)).toEqual({ auth_type: 'ec2', 'note ${{': '${{' })
  expect(render(step!.request.headers, scope)).toEqual({ 'X-Custom': 'a ${{ b' })
})

test('a "__proto__" key stays an own key through rendering', () => {
  const value = JSON.parse('{"__proto__": {"a": "${{"}, "b": 2}')
  expect(render(literalJson(value), scope)).toStrictEqual(value)
})

test('a recorded request body keeps a "__proto__" key as an own key, secrets still replaced', () => {
  const sent = JSON.parse('{"__proto__": {"x": 1}, "secret_key": "s3cr3t", "auth_type": "iam"}')
  const scenario = buildScenario(
    [{ method: 'POST', target: '/v1/auth/cloud/config/client', requestHeaders: [], requestBody: Buffer.from(JSON.stringify(sent)), status: 204, responseHeaders: [], responseBody: Buffer.from('') }],
    { name: 'proto' },
  ) as unknown as { steps: { request: { json: Record<string, unknown> } }[] }
  const json = scenario.steps[0]!.request.json
  expect(Object.keys(json)).toEqual(['__proto__', 'secret_key', 'auth_type'])
  expect(json.secret_key).toBe('${{ vars.secret_key }}')
  expect(JSON.stringify(json)).not.toContain('s3cr3t')
})
