import { describe, expect, it } from 'vitest'
import { seedRegistry } from '../../src/services/registry/index.ts'
import {
  BASE,
  createModule,
  createVersion,
  modulePath,
  newDoppel,
  publish,
  tarball,
  upload,
  v1,
  v2,
  versionPath,
} from './registry-client.ts'

describe('create module', () => {
  it('answers 201 with the documented registry-modules resource', async () => {
    const doppel = newDoppel()
    const res = await createModule(doppel, 'acme', 'vpc', 'aws')
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({
      type: 'registry-modules',
      attributes: {
        name: 'vpc',
        namespace: 'acme',
        provider: 'aws',
        'registry-name': 'private',
        status: 'pending',
        'version-statuses': [],
        'created-at': '2026-03-02T10:00:00.000Z',
        'updated-at': '2026-03-02T10:00:00.000Z',
      },
      relationships: { organization: { data: { id: 'acme', type: 'organizations' } } },
      links: { self: '/api/v2/organizations/acme/registry-modules/private/acme/vpc/aws' },
    })
    expect(res.body.data.id).toMatch(/^mod-[A-Za-z0-9]{16}$/)
  })

  it('takes a body without registry-name as private', async () => {
    const doppel = newDoppel()
    const res = await v2(doppel, 'POST', '/api/v2/organizations/acme/registry-modules', {
      body: { data: { type: 'registry-modules', attributes: { name: 'vpc', provider: 'aws' } } },
    })
    expect(res.status).toBe(201)
  })

  const bad: [string, Record<string, unknown>, string, number][] = [
    ['name missing', { provider: 'aws' }, '/data/attributes/name', 422],
    ['name with a leading dash', { name: '-vpc', provider: 'aws' }, '/data/attributes/name', 422],
    ['name too long', { name: 'a'.repeat(65), provider: 'aws' }, '/data/attributes/name', 422],
    ['uppercase provider', { name: 'vpc', provider: 'AWS' }, '/data/attributes/provider', 422],
    ['unknown registry-name', { name: 'vpc', provider: 'aws', 'registry-name': 'secret' }, '/data/attributes/registry-name', 422],
    ['namespace on a private module', { name: 'vpc', provider: 'aws', namespace: 'acme' }, '/data/attributes/namespace', 422],
    ['no-code of the wrong type', { name: 'vpc', provider: 'aws', 'no-code': 'yes' }, '/data/attributes/no-code', 422],
  ]

  it.each(bad)('refuses %s with a pointer and stores nothing', async (_case, attributes, pointer, status) => {
    const doppel = newDoppel()
    await createModule(doppel, 'acme', 'keep', 'aws')
    const before = doppel.store.snapshot()
    const res = await v2(doppel, 'POST', '/api/v2/organizations/acme/registry-modules', {
      body: { data: { type: 'registry-modules', attributes } },
    })
    expect(res.status).toBe(status)
    expect(res.body.errors[0]).toMatchObject({ status: String(status), title: 'invalid attribute', source: { pointer } })
    expect(doppel.store.snapshot()).toEqual(before)
  })

  it('refuses a duplicate with "Name has already been taken"', async () => {
    const doppel = newDoppel()
    await createModule(doppel, 'acme', 'vpc', 'aws')
    const res = await createModule(doppel, 'acme', 'vpc', 'aws')
    expect(res.status).toBe(422)
    expect(res.body).toEqual({
      errors: [{ status: '422', title: 'invalid attribute', detail: 'Name has already been taken', source: { pointer: '/data/attributes/name' } }],
    })
  })

  it('refuses a public module with 403, and a token without the organisation with 404', async () => {
    const doppel = newDoppel()
    seedRegistry(doppel, { tokens: [{ token: 'globex-token', organizations: ['globex'] }] })
    const pub = await v2(doppel, 'POST', '/api/v2/organizations/acme/registry-modules', {
      body: { data: { type: 'registry-modules', attributes: { name: 'vpc', provider: 'aws', 'registry-name': 'public' } } },
    })
    expect(pub.status).toBe(403)
    expect(pub.body.errors[0]).toMatchObject({ status: '403', title: 'forbidden' })
    expect((await createModule(doppel, 'acme', 'vpc', 'aws', 'globex-token')).status).toBe(404)
  })

  it('415 on a POST without the JSON:API content type', async () => {
    const doppel = newDoppel()
    const res = await v2(doppel, 'POST', '/api/v2/organizations/acme/registry-modules', {
      contentType: 'application/json',
      body: { data: { type: 'registry-modules', attributes: { name: 'vpc', provider: 'aws' } } },
    })
    expect(res.status).toBe(415)
  })
})

describe('create version and upload', () => {
  it('serves the current and the deprecated create-version paths', async () => {
    const doppel = newDoppel()
    await createModule(doppel, 'acme', 'vpc', 'aws')
    const current = await createVersion(doppel, 'acme', 'vpc', 'aws', '1.0.0')
    const legacy = await v2(doppel, 'POST', '/api/v2/registry-modules/acme/vpc/aws/versions', {
      body: { data: { type: 'registry-module-versions', attributes: { version: '1.2.3-alpha+feature', 'commit-sha': 'abc123' } } },
    })
    for (const res of [current, legacy]) {
      expect(res.status).toBe(201)
      expect(res.body.data.type).toBe('registry-module-versions')
      expect(res.body.data.attributes.status).toBe('pending')
      expect(res.body.data.links.upload).toContain('/object/')
    }
    expect(legacy.body.data.attributes['commit-sha']).toBe('abc123')
  })

  it('refuses a non-semver or repeated version with 422', async () => {
    const doppel = newDoppel()
    await createModule(doppel, 'acme', 'vpc', 'aws')
    await createVersion(doppel, 'acme', 'vpc', 'aws', '1.0.0')
    const invalid = await createVersion(doppel, 'acme', 'vpc', 'aws', 'v1')
    expect(invalid.body.errors[0]).toMatchObject({ status: '422', source: { pointer: '/data/attributes/version' } })
    const repeated = await createVersion(doppel, 'acme', 'vpc', 'aws', '1.0.0')
    expect(repeated.body.errors[0].detail).toBe('Version has already been taken')
    expect((await createVersion(doppel, 'acme', 'nope', 'aws', '1.0.0')).status).toBe(404)
  })

  it('upload turns the version ok; a second upload is refused; a bad archive is a 422 that changes nothing', async () => {
    const doppel = newDoppel()
    await createModule(doppel, 'acme', 'vpc', 'aws')
    const created = await createVersion(doppel, 'acme', 'vpc', 'aws', '1.0.0')
    const link = created.body.data.links.upload
    const before = doppel.store.snapshot()
    for (const bytes of [new TextEncoder().encode('not a tarball'), new Uint8Array([0x1f, 0x8b, 1, 2, 3])]) {
      const res = await upload(doppel, link, bytes)
      expect(res.status).toBe(422)
      expect(res.body.errors[0].status).toBe('422')
    }
    expect(doppel.store.snapshot()).toEqual(before)
    expect((await upload(doppel, link, tarball({ 'main.tf': '' }))).status).toBe(200)
    const shown = await v2(doppel, 'GET', `${modulePath('acme', 'vpc', 'aws')}/version?module_version=1.0.0`)
    expect(shown.body.data.attributes.status).toBe('ok')
    expect((await upload(doppel, link, tarball({ 'main.tf': '' }))).status).toBe(409)
  })

  it('413 for a tarball over 50 MiB', async () => {
    const doppel = newDoppel()
    await createModule(doppel, 'acme', 'vpc', 'aws')
    const created = await createVersion(doppel, 'acme', 'vpc', 'aws', '1.0.0')
    const res = await upload(doppel, created.body.data.links.upload, new Uint8Array(50 * 1024 * 1024 + 1))
    expect(res.status).toBe(413)
    expect(res.body.errors[0]).toMatchObject({ status: '413' })
  })
})

describe('show', () => {
  it('shows a module by the current path, the deprecated path and its id', async () => {
    const doppel = newDoppel()
    const created = await publish(doppel, 'acme', 'vpc', 'aws', '1.0.0')
    const id = created.body.data.relationships['registry-module'].data.id
    for (const path of [modulePath('acme', 'vpc', 'aws'), '/api/v2/registry-modules/show/acme/vpc/aws', `/api/v2/registry-modules/${id}`]) {
      const res = await v2(doppel, 'GET', path)
      expect(res.status, path).toBe(200)
      expect(res.body.data).toMatchObject({ id, attributes: { status: 'setup_complete', 'version-statuses': [{ version: '1.0.0', status: 'ok' }] } })
    }
  })

  it('hides a module from a token without its organisation, by every path', async () => {
    const doppel = newDoppel()
    seedRegistry(doppel, { tokens: [{ token: 'globex-token', organizations: ['globex'] }] })
    const created = await publish(doppel, 'acme', 'vpc', 'aws', '1.0.0')
    const id = created.body.data.relationships['registry-module'].data.id
    for (const path of [modulePath('acme', 'vpc', 'aws'), '/api/v2/registry-modules/show/acme/vpc/aws', `/api/v2/registry-modules/${id}`]) {
      const res = await v2(doppel, 'GET', path, { token: 'globex-token' })
      expect(res.status, path).toBe(404)
    }
  })

  it('show version answers 404 for an unknown or missing module_version', async () => {
    const doppel = newDoppel()
    await publish(doppel, 'acme', 'vpc', 'aws', '1.0.0')
    expect((await v2(doppel, 'GET', `${modulePath('acme', 'vpc', 'aws')}/version?module_version=2.0.0`)).status).toBe(404)
    expect((await v2(doppel, 'GET', `${modulePath('acme', 'vpc', 'aws')}/version`)).status).toBe(404)
  })
})

describe('list modules', () => {
  it('paginates with page[number] and page[size] (default 20, max 100), links and meta.pagination', async () => {
    const doppel = newDoppel()
    seedRegistry(doppel, {
      modules: Array.from({ length: 45 }, (_, i) => ({ organization: 'acme', name: `m${String(i).padStart(2, '0')}`, provider: 'aws' })),
    })
    const first = await v2(doppel, 'GET', '/api/v2/organizations/acme/registry-modules')
    expect(first.body.data).toHaveLength(20)
    expect(first.body.meta.pagination).toEqual({
      'current-page': 1,
      'page-size': 20,
      'prev-page': null,
      'next-page': 2,
      'total-pages': 3,
      'total-count': 45,
    })
    expect(first.body.links.prev).toBeNull()
    expect(first.body.links.next).toBe(`${BASE}/api/v2/organizations/acme/registry-modules?page%5Bnumber%5D=2&page%5Bsize%5D=20`)

    const last = await v2(doppel, 'GET', '/api/v2/organizations/acme/registry-modules?page%5Bnumber%5D=3&page%5Bsize%5D=20')
    expect(last.body.data.map((m: { attributes: { name: string } }) => m.attributes.name)).toEqual(['m40', 'm41', 'm42', 'm43', 'm44'])
    expect(last.body.links.next).toBeNull()
    expect(last.body.meta.pagination['prev-page']).toBe(2)

    const big = await v2(doppel, 'GET', '/api/v2/organizations/acme/registry-modules?page[size]=500')
    expect(big.body.data).toHaveLength(45)
    expect(big.body.meta.pagination['page-size']).toBe(100)

    const filtered = await v2(doppel, 'GET', '/api/v2/organizations/acme/registry-modules?q=m1')
    expect(filtered.body.meta.pagination['total-count']).toBe(10)
  })
})

describe('delete', () => {
  it('deletes a version, then the last version takes the module with it (cascade)', async () => {
    const doppel = newDoppel()
    await publish(doppel, 'acme', 'vpc', 'aws', '1.0.0')
    await publish(doppel, 'acme', 'vpc', 'aws', '1.1.0')
    expect((await v2(doppel, 'DELETE', versionPath('acme', 'vpc', 'aws', '1.0.0'))).status).toBe(204)
    expect((await v1(doppel, 'acme/vpc/aws/1.0.0')).status).toBe(404)
    expect((await v2(doppel, 'GET', modulePath('acme', 'vpc', 'aws'))).status).toBe(200)
    expect((await v2(doppel, 'DELETE', versionPath('acme', 'vpc', 'aws', '1.1.0'))).status).toBe(204)
    expect((await v2(doppel, 'GET', modulePath('acme', 'vpc', 'aws'))).status).toBe(404)
    expect(doppel.store.snapshot()['registry.archives']).toEqual({})
  })

  it('deletes a provider and a whole module, by current and deprecated paths', async () => {
    const doppel = newDoppel()
    for (const provider of ['aws', 'gcp', 'azurerm']) await publish(doppel, 'acme', 'vpc', provider, '1.0.0')
    await publish(doppel, 'acme', 'db', 'aws', '1.0.0')
    expect((await v2(doppel, 'DELETE', modulePath('acme', 'vpc', 'aws'))).status).toBe(204)
    expect((await v1(doppel, 'acme/vpc/gcp/1.0.0')).body.providers).toEqual(['azurerm', 'gcp'])
    expect((await v2(doppel, 'POST', '/api/v2/registry-modules/actions/delete/acme/vpc/gcp/1.0.0')).status).toBe(204)
    expect((await v2(doppel, 'POST', '/api/v2/registry-modules/actions/delete/acme/vpc')).status).toBe(204)
    expect((await v1(doppel, 'acme/vpc/azurerm/versions')).status).toBe(404)
    expect((await v1(doppel, 'acme/db/aws/versions')).status).toBe(200)
    expect((await v2(doppel, 'DELETE', '/api/v2/organizations/acme/registry-modules/private/acme/vpc')).status).toBe(404)
  })

  it('415 on a DELETE without Content-Type even with an empty body, and nothing is deleted', async () => {
    const doppel = newDoppel()
    await publish(doppel, 'acme', 'vpc', 'aws', '1.0.0')
    const res = await v2(doppel, 'DELETE', versionPath('acme', 'vpc', 'aws', '1.0.0'), { contentType: null })
    expect(res.status).toBe(415)
    expect((await v1(doppel, 'acme/vpc/aws/1.0.0')).status).toBe(200)
  })

  it('an unknown /api/v2 route is a JSON:API 404', async () => {
    const doppel = newDoppel()
    const res = await v2(doppel, 'GET', '/api/v2/workspaces')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ errors: [{ status: '404', title: 'not found' }] })
  })
})
