import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BASE, JSON_API, createVersion, newDoppel, publish, upload, v1, v2, versionPath } from './registry-client.ts'

const PATH = versionPath('acme', 'vpc', 'aws', '1.0.0')

const scalar = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    'Deprecated',
    'Undeprecated',
    'Revoked',
    'Unrevoked',
    'deprecated',
    'module-versions',
    'registry-module-versions',
    'https://example.com/advisory',
    'javascript:alert(1)',
  ),
)
const value = fc.oneof({ weight: 3, arbitrary: scalar }, { weight: 1, arbitrary: fc.jsonValue() })
/** Mostly `good`, sometimes any value: near-valid documents reach the deep validation rules and the 200s. */
const mostly = <T,>(good: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: good }, { weight: 1, arbitrary: value })
const link = mostly(fc.constantFrom('https://example.com/advisory', ''))
const deprecation = fc.record(
  { 'deprecated-status': mostly(fc.constantFrom('Deprecated', 'Undeprecated')), reason: mostly(fc.string()), link, constructor: value },
  { requiredKeys: [] },
)
const revocation = fc.record(
  { status: mostly(fc.constantFrom('Revoked', 'Unrevoked')), message: mostly(fc.string()), link, ['__proto__']: value },
  { requiredKeys: [] },
)
const attributes = fc.oneof(
  { weight: 4, arbitrary: fc.record({ deprecation: mostly(deprecation) }) },
  { weight: 2, arbitrary: fc.record({ revocation: mostly(revocation) }) },
  { weight: 1, arbitrary: fc.record({ deprecation: mostly(deprecation), revocation: mostly(revocation) }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: value },
)
const dataMembers = {
  type: mostly(fc.constantFrom('module-versions', 'registry-module-versions')),
  attributes,
  id: value,
  relationships: fc.oneof(fc.record({ 'tag-bindings': value }), value),
}
const data = fc.oneof(
  { weight: 4, arbitrary: fc.record(dataMembers, { requiredKeys: ['type', 'attributes'] }) },
  { weight: 1, arbitrary: fc.record(dataMembers, { requiredKeys: [] }) },
)
/** PATCH bodies: mostly near-valid documents, plus any JSON and any text. */
const body = fc.oneof(
  { weight: 8, arbitrary: fc.record({ data: mostly(data) }).map((d) => JSON.stringify(d)) },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string() },
)

async function world() {
  const doppel = newDoppel()
  await publish(doppel, 'acme', 'vpc', 'aws', '1.0.0')
  await createVersion(doppel, 'acme', 'vpc', 'aws', '1.1.0')
  return doppel
}

describe('PATCH bodies (fast-check)', () => {
  it('never answer a 5xx, answer 422 with a pointer when refused, and never change state on a 4xx', async () => {
    const doppel = await world()
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        const before = doppel.store.snapshot()
        const res = await v2(doppel, 'PATCH', PATH, { body: text })
        expect([200, 422]).toContain(res.status)
        if (res.status === 422) {
          expect(res.body.errors).toHaveLength(1)
          expect(res.body.errors[0]).toMatchObject({ status: '422', title: 'invalid attribute' })
          expect(res.body.errors[0].source.pointer).toMatch(/^\/data/)
          expect(doppel.store.snapshot()).toEqual(before)
        } else {
          expect(res.body.data.id).toBe(res.body.data.id.trim())
          const read = await v1(doppel, 'acme/vpc/aws/1.0.0')
          expect(read.status).toBe(200)
          const included = res.body.included?.[0]
          if (res.body.data.type === 'module-versions' && included) {
            expect(read.body.deprecation).toEqual({ reason: included.attributes.reason, link: included.attributes.link })
          }
          if (res.body.data.type === 'module-versions' && !included) expect(read.body.deprecation).toBeNull()
        }
      }),
      { numRuns: 400 },
    )
  })

  it('any method, path, token and content type under the registry gives no 5xx and no change on a 4xx', async () => {
    const doppel = await world()
    const segment = fc.oneof(
      fc.constantFrom('acme', 'vpc', 'aws', 'private', '1.0.0', '1.1.0', 'versions', 'version', 'download', 'show', 'actions', 'delete', '%', '%2F', '..'),
      fc.string({ minLength: 1, maxLength: 8 }).map(encodeURIComponent),
    )
    const prefix = fc.constantFrom(
      '/api/v2/organizations/acme/registry-modules',
      '/api/v2/organizations/acme/registry-modules/private/acme',
      '/api/v2/registry-modules',
      '/api/registry/v1/modules/acme',
      '/_archivist/v1/object',
    )
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE'),
        prefix,
        fc.array(segment, { maxLength: 5 }),
        fc.constantFrom('root', 'bogus', null),
        fc.constantFrom(JSON_API, 'application/json', null),
        body,
        async (method, base, segments, token, contentType, text) => {
          const before = doppel.store.snapshot()
          const path = [base, ...segments].join('/')
          const res = await v2(doppel, method, path, { token, contentType, body: method === 'GET' ? undefined : text })
          expect(res.status).toBeLessThan(500)
          if (res.status >= 400) expect(doppel.store.snapshot()).toEqual(before)
        },
      ),
      { numRuns: 400 },
    )
  })

  it('uploads of arbitrary bytes give no 5xx and, when refused, leave the version pending', async () => {
    const doppel = newDoppel()
    await publish(doppel, 'acme', 'vpc', 'aws', '1.0.0')
    const link = (await createVersion(doppel, 'acme', 'vpc', 'aws', '2.0.0')).body.data.links.upload
    const gzipMagic = fc.uint8Array({ maxLength: 600 }).map((b) => new Uint8Array([0x1f, 0x8b, 8, 0, ...b]))
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.uint8Array({ maxLength: 600 }), gzipMagic), async (bytes) => {
        const before = doppel.store.snapshot()
        const res = await upload(doppel, link, bytes)
        expect(res.status).toBe(422)
        expect(doppel.store.snapshot()).toEqual(before)
      }),
      { numRuns: 200 },
    )
    expect((await doppel.fetch(`${BASE}/api/registry/v1/modules/acme/vpc/aws/2.0.0`, { headers: { Authorization: 'Bearer root' } })).status).toBe(404)
  })
})
