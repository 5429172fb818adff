import { beforeEach, describe, expect, it } from 'vitest'
import type { Doppel } from '../../src/features/doppel/index.ts'
import { seedRegistry } from '../../src/services/registry/index.ts'
import {
  createVersion,
  deprecateBody,
  JSON_API,
  newDoppel,
  publish,
  undeprecateBody,
  v1,
  v2,
  versionPath,
} from './registry-client.ts'

const PATH = versionPath('acme', 'vpc', 'aws', '1.0.0')

let doppel: Doppel
let versionId: string

beforeEach(async () => {
  doppel = newDoppel()
  versionId = (await publish(doppel, 'acme', 'vpc', 'aws', '1.0.0')).body.data.id
  await publish(doppel, 'acme', 'vpc', 'aws', '1.1.0')
})

async function readBoth(): Promise<{ single: unknown; listed: unknown }> {
  const single = await v1(doppel, 'acme/vpc/aws/1.0.0')
  const list = await v1(doppel, 'acme/vpc/aws/versions')
  expect(single.status).toBe(200)
  expect(list.status).toBe(200)
  const entry = list.body.modules[0].versions.find((v: { version: string }) => v.version === '1.0.0')
  return { single: single.body.deprecation, listed: entry.deprecation }
}

describe('state table: not deprecated → deprecated → not deprecated', () => {
  it('deprecate answers the documented compound document and both reads show the deprecation', async () => {
    expect(await readBoth()).toEqual({ single: null, listed: null })

    const res = await v2(doppel, 'PATCH', PATH, { body: deprecateBody() })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe(JSON_API)
    const depId = res.body.data.relationships.deprecation.data.id
    expect(res.body).toEqual({
      data: {
        type: 'module-versions',
        id: versionId,
        relationships: { deprecation: { data: { id: depId, type: 'deprecations' } } },
      },
      included: [{ type: 'deprecations', id: depId, attributes: { link: 'https://example.com/a/1', reason: 'CVE-2026-0001' } }],
    })
    expect(versionId).toMatch(/^modver-[A-Za-z0-9]{16}$/)
    expect(depId).toMatch(/^dep-[A-Za-z0-9]{16}$/)

    const deprecation = { reason: 'CVE-2026-0001', link: 'https://example.com/a/1' }
    expect(await readBoth()).toEqual({ single: deprecation, listed: deprecation })
    const list = await v1(doppel, 'acme/vpc/aws/versions')
    const other = list.body.modules[0].versions.find((v: { version: string }) => v.version === '1.1.0')
    expect(other.deprecation).toBeNull()
  })

  it('undeprecate answers bare data and both reads return deprecation null', async () => {
    await v2(doppel, 'PATCH', PATH, { body: deprecateBody() })
    const res = await v2(doppel, 'PATCH', PATH, { body: undeprecateBody() })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ data: { type: 'module-versions', id: versionId } })
    expect(await readBoth()).toEqual({ single: null, listed: null })
  })

  it('accepts data.type registry-module-versions too', async () => {
    const body = deprecateBody()
    body.data.type = 'registry-module-versions'
    expect((await v2(doppel, 'PATCH', PATH, { body })).status).toBe(200)
  })
})

describe('emulator-defined edges (docs/reference/registry.md §7.4)', () => {
  it('repeating a deprecation keeps its id and overwrites reason and link', async () => {
    const first = await v2(doppel, 'PATCH', PATH, { body: deprecateBody() })
    const second = await v2(doppel, 'PATCH', PATH, { body: deprecateBody({ reason: 'use 2.x', link: 'https://example.com/b' }) })
    expect(second.status).toBe(200)
    expect(second.body.included[0].id).toBe(first.body.included[0].id)
    expect(second.body.included[0].attributes).toEqual({ link: 'https://example.com/b', reason: 'use 2.x' })
    expect((await readBoth()).single).toEqual({ reason: 'use 2.x', link: 'https://example.com/b' })
  })

  it('undeprecating a clean version is a 200 that changes nothing', async () => {
    const before = doppel.store.snapshot()
    const res = await v2(doppel, 'PATCH', PATH, { body: undeprecateBody() })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ data: { type: 'module-versions', id: versionId } })
    expect(doppel.store.snapshot()).toEqual(before)
  })

  it('a deprecation without reason and link reads back as empty strings', async () => {
    const res = await v2(doppel, 'PATCH', PATH, { body: deprecateBody({}) })
    expect(res.body.included[0].attributes).toEqual({ link: '', reason: '' })
    expect((await readBoth()).single).toEqual({ reason: '', link: '' })
  })

  it('a new deprecation after a revert gets a new id', async () => {
    const first = await v2(doppel, 'PATCH', PATH, { body: deprecateBody() })
    await v2(doppel, 'PATCH', PATH, { body: undeprecateBody() })
    const again = await v2(doppel, 'PATCH', PATH, { body: deprecateBody() })
    expect(again.body.included[0].id).not.toBe(first.body.included[0].id)
  })

  it('a version can be deprecated whatever its upload status', async () => {
    const pending = await createVersion(doppel, 'acme', 'vpc', 'aws', '2.0.0-rc.1')
    expect(pending.body.data.attributes.status).toBe('pending')
    const res = await v2(doppel, 'PATCH', versionPath('acme', 'vpc', 'aws', '2.0.0-rc.1'), { body: deprecateBody() })
    expect(res.status).toBe(200)
    expect(res.body.data.id).toBe(pending.body.data.id)
  })
})

describe('error table', () => {
  const org = { organizations: ['acme'] }

  it('401 with the observed body when the token is missing or unknown, for deprecate and revert', async () => {
    for (const body of [deprecateBody(), undeprecateBody()]) {
      for (const token of [null, 'nope']) {
        const res = await v2(doppel, 'PATCH', PATH, { body, token })
        expect(res.status).toBe(401)
        expect(res.body).toEqual({ errors: [{ status: '401', title: 'unauthorized' }] })
      }
    }
  })

  it('404 when the token may not see the organisation, the same body as a missing version', async () => {
    seedRegistry(doppel, { tokens: [{ token: 'other-token', organizations: ['other'] }, { token: 'acme-token', ...org }] })
    const notFound = { errors: [{ status: '404', title: 'not found' }] }
    for (const body of [deprecateBody(), undeprecateBody()]) {
      const hidden = await v2(doppel, 'PATCH', PATH, { body, token: 'other-token' })
      const missing = await v2(doppel, 'PATCH', versionPath('acme', 'vpc', 'aws', '9.9.9'), { body, token: 'acme-token' })
      expect(hidden.status).toBe(404)
      expect(missing.status).toBe(404)
      expect(hidden.body).toEqual(notFound)
      expect(missing.body).toEqual(notFound)
    }
    expect((await v2(doppel, 'PATCH', PATH, { body: deprecateBody(), token: 'acme-token' })).status).toBe(200)
  })

  it('404 for a missing module, provider, organisation, or a namespace that does not repeat the organisation', async () => {
    const paths = [
      versionPath('acme', 'nope', 'aws', '1.0.0'),
      versionPath('acme', 'vpc', 'gcp', '1.0.0'),
      versionPath('ghost', 'vpc', 'aws', '1.0.0'),
      '/api/v2/organizations/acme/registry-modules/private/other/vpc/aws/1.0.0',
      '/api/v2/organizations/acme/registry-modules/public/acme/vpc/aws/1.0.0',
    ]
    for (const path of paths) {
      const res = await v2(doppel, 'PATCH', path, { body: deprecateBody() })
      expect(res.status, path).toBe(404)
      expect(res.body).toEqual({ errors: [{ status: '404', title: 'not found' }] })
    }
  })

  it('415 with the observed body for a missing or wrong Content-Type', async () => {
    for (const contentType of [null, 'application/json', 'text/plain']) {
      const res = await v2(doppel, 'PATCH', PATH, { body: deprecateBody(), contentType })
      expect(res.status).toBe(415)
      expect(res.body).toEqual({
        errors: [{ status: '415', title: 'invalid content type', detail: 'content-type must be application/vnd.api+json' }],
      })
    }
  })

  const unprocessable: [string, unknown, string, string][] = [
    ['not JSON', '{"data":', '/data', 'Request body is not a valid JSON:API document'],
    ['a JSON array', '[]', '/data', 'Request body is not a valid JSON:API document'],
    ['no data', {}, '/data', "Data can't be blank"],
    ['data not an object', { data: 'x' }, '/data', 'Data must be an object'],
    ['no type', { data: { attributes: {} } }, '/data/type', "Type can't be blank"],
    ['wrong type', { data: { type: 'workspaces', attributes: {} } }, '/data/type', 'Type is not included in the list'],
    ['no attributes', { data: { type: 'module-versions' } }, '/data/attributes', "Attributes can't be blank"],
    ['attributes not an object', { data: { type: 'module-versions', attributes: [1] } }, '/data/attributes', 'Attributes must be an object'],
    ['no deprecation', { data: { type: 'module-versions', attributes: {} } }, '/data/attributes/deprecation', "Deprecation can't be blank"],
    [
      'deprecation not an object',
      { data: { type: 'module-versions', attributes: { deprecation: 'Deprecated' } } },
      '/data/attributes/deprecation',
      'Deprecation must be an object',
    ],
    [
      'no deprecated-status',
      { data: { type: 'module-versions', attributes: { deprecation: { reason: 'x' } } } },
      '/data/attributes/deprecation/deprecated-status',
      "Deprecated status can't be blank",
    ],
    [
      'unknown deprecated-status',
      { data: { type: 'module-versions', attributes: { deprecation: { 'deprecated-status': 'deprecated' } } } },
      '/data/attributes/deprecation/deprecated-status',
      'Deprecated status is not included in the list',
    ],
    [
      'deprecated-status of the wrong type',
      { data: { type: 'module-versions', attributes: { deprecation: { 'deprecated-status': true } } } },
      '/data/attributes/deprecation/deprecated-status',
      'Deprecated status must be a string',
    ],
    ['reason of the wrong type', deprecateBody({ reason: 42 }), '/data/attributes/deprecation/reason', 'Reason must be a string'],
    ['link of the wrong type', deprecateBody({ link: ['x'] }), '/data/attributes/deprecation/link', 'Link must be a string'],
    ['link that is not a URL', deprecateBody({ link: 'not a url' }), '/data/attributes/deprecation/link', 'Link is not a valid URL'],
  ]

  it.each(unprocessable)('422 with source.pointer for %s, and nothing changes', async (_case, body, pointer, detail) => {
    const before = doppel.store.snapshot()
    const res = await v2(doppel, 'PATCH', PATH, { body })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ errors: [{ status: '422', title: 'invalid attribute', detail, source: { pointer } }] })
    expect(doppel.store.snapshot()).toEqual(before)
  })

  it('404 wins over 422 for a missing version (existence is checked before the body)', async () => {
    const res = await v2(doppel, 'PATCH', versionPath('acme', 'vpc', 'aws', '9.9.9'), { body: {} })
    expect(res.status).toBe(404)
  })

  it('413 with a JSON:API error for a body over 1 MiB', async () => {
    const body = deprecateBody({ reason: 'x'.repeat(1024 * 1024) })
    const res = await v2(doppel, 'PATCH', PATH, { body })
    expect(res.status).toBe(413)
    expect(res.body.errors[0]).toMatchObject({ status: '413', title: 'request entity too large' })
  })

  it('500 and 503 (injected) answer with a JSON:API error object and leave the version alone', async () => {
    for (const status of [500, 503]) {
      doppel.faults.add({ method: 'PATCH', path: '/api/v2/organizations/:org/registry-modules/*', status, times: 1 })
      const res = await v2(doppel, 'PATCH', PATH, { body: deprecateBody() })
      expect(res.status).toBe(status)
      expect(res.body.errors[0].status).toBe(String(status))
      expect(typeof res.body.errors[0].title).toBe('string')
      expect((await readBoth()).single).toBeNull()
    }
  })
})

describe('revoke and unrevoke (attributes.revocation)', () => {
  const revoke = (extra: Record<string, unknown> = {}) => ({
    data: { type: 'registry-module-versions', attributes: { revocation: { status: 'Revoked', message: 'broken', link: 'https://example.com/r', ...extra } } },
  })
  const unrevoke = { data: { type: 'registry-module-versions', attributes: { revocation: { status: 'Unrevoked' } } } }

  it('refuses to revoke a version that is not deprecated', async () => {
    const res = await v2(doppel, 'PATCH', PATH, { body: revoke() })
    expect(res.status).toBe(422)
    expect(res.body.errors[0].source).toEqual({ pointer: '/data/attributes/revocation/status' })
  })

  it('revokes a deprecated version, shows it on the module, and unrevoking leaves it deprecated', async () => {
    await v2(doppel, 'PATCH', PATH, { body: deprecateBody() })
    const revoked = await v2(doppel, 'PATCH', PATH, { body: revoke() })
    expect(revoked.status).toBe(200)
    expect(revoked.body.data).toMatchObject({
      id: versionId,
      type: 'registry-module-versions',
      attributes: { version: '1.0.0', revocation: { status: 'revoked', message: 'broken', link: 'https://example.com/r' } },
      relationships: { 'registry-module': { data: { type: 'registry-modules' } } },
    })
    expect(revoked.body.data.links.upload).toContain('/object/')
    const module = await v2(doppel, 'GET', '/api/v2/organizations/acme/registry-modules/private/acme/vpc/aws')
    expect(module.body.data.attributes['revoked-versions']).toEqual(['1.0.0'])

    const undeprecate = await v2(doppel, 'PATCH', PATH, { body: undeprecateBody() })
    expect(undeprecate.status).toBe(422)

    const unrevoked = await v2(doppel, 'PATCH', PATH, { body: unrevoke })
    expect(unrevoked.status).toBe(200)
    expect(unrevoked.body.data.attributes.revocation).toEqual({ status: 'unrevoked' })
    expect((await readBoth()).single).toEqual({ reason: 'CVE-2026-0001', link: 'https://example.com/a/1' })
  })

  it('422 when a body holds both a deprecation and a revocation, or an unknown status', async () => {
    const both = { data: { type: 'module-versions', attributes: { deprecation: { 'deprecated-status': 'Deprecated' }, revocation: { status: 'Revoked' } } } }
    expect((await v2(doppel, 'PATCH', PATH, { body: both })).body.errors[0].source.pointer).toBe('/data/attributes')
    const bad = await v2(doppel, 'PATCH', PATH, { body: revoke({ status: 'revoked' }) })
    expect(bad.body.errors[0]).toMatchObject({ status: '422', source: { pointer: '/data/attributes/revocation/status' } })
  })
})
