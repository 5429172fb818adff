/**
 * The state's size limit (issue 29): a write that would take the records past `maxStateBytes` is refused
 * in its service's own envelope and changes nothing, so that a saved state loads again; a state at the
 * default limit reads back. `Infinity` turns the limit, and the measuring, off.
 */
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createDoppel, type Doppel } from '../../src/index.ts'
import { openDataDir } from '../../src/features/snapshot/index.ts'
import { tempDir } from '../support/temp-dir.ts'
import { BASE, createModule, createVersion, tarball, upload, v2, versionPath } from '../registry/registry-client.ts'

const ROOT = { 'X-Service-Token': 'root', Authorization: 'Bearer root' }

async function send(doppel: Doppel, method: string, path: string, body?: unknown) {
  const response = await doppel.fetch(`${BASE}${path}`, {
    method,
    headers: ROOT,
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  })
  return { status: response.status, text: await response.text() }
}

/** Writes roles of `ami` ids until one is refused (that refusal), or gives up after 100k. */
async function fillWithRoles(doppel: Doppel, amis = 20): Promise<{ status: number; text: string; written: number }> {
  const bound = Array.from({ length: amis }, (_, i) => `ami-${String(i).padStart(8, '0')}`)
  for (let i = 0; i < 100_000; i++) {
    const reply = await send(doppel, 'POST', `/v1/auth/cloud/role/r${i}`, { auth_type: 'ec2', bound_ami_id: bound })
    if (reply.status !== 204) return { ...reply, written: i }
  }
  return { status: 204, text: 'never refused', written: 100_000 }
}

const LIMIT = 40_000
const stateOf = (doppel: Doppel) => JSON.stringify(doppel.snapshot().domains)

describe('the state size limit', () => {
  it('a role write past it is 413 in the auth envelope, naming the limit, and writes nothing', async () => {
    const doppel = createDoppel({ maxStateBytes: LIMIT })
    const refused = await fillWithRoles(doppel)
    expect(refused.status).toBe(413)
    expect(JSON.parse(refused.text)).toEqual({ errors: [`Failed to write: the state would grow past its limit of ${LIMIT} bytes of records; delete some or reset`] })
    expect((await send(doppel, 'GET', `/v1/auth/cloud/role/r${refused.written}`)).status).toBe(404)
    // Replacing a record with one no larger still works at the limit, and so does a delete.
    expect((await send(doppel, 'POST', '/v1/auth/cloud/role/r0', { auth_type: 'ec2', bound_ami_id: 'ami-1' })).status).toBe(204)
    expect((await send(doppel, 'DELETE', '/v1/auth/cloud/role/r1')).status).toBe(204)
    expect((await send(doppel, 'GET', '/_doppel/snapshot')).status).toBe(200)
  })

  it('a module upload past it is 413 in the registry envelope; the version stays pending with no archive', async () => {
    const doppel = createDoppel({ maxStateBytes: LIMIT })
    expect((await createModule(doppel, 'acme', 'vpc', 'aws')).status).toBe(201)
    const created = await createVersion(doppel, 'acme', 'vpc', 'aws', '1.0.0')
    const before = stateOf(doppel)
    // Incompressible text, so the archive (kept as base64) is near its unpacked size.
    const reply = await upload(doppel, created.body.data.links.upload, tarball({ 'main.tf': `# ${randomBytes(LIMIT).toString('base64')}\n` }))
    expect(reply.status).toBe(413)
    expect(reply.body).toEqual({ errors: [{ status: '413', title: 'request entity too large', detail: expect.stringContaining(`limit of ${LIMIT} bytes`) }] })
    expect(stateOf(doppel)).toBe(before)
    expect((await v2(doppel, 'GET', `${versionPath('acme', 'vpc', 'aws', '1.0.0').replace('/1.0.0', '')}/version?module_version=1.0.0`)).body.data.attributes.status).toBe('pending')
  })

  it('fixtures and a snapshot PUT past it are refused whole, naming the limit', async () => {
    const big = createDoppel()
    for (let i = 0; i < 60; i++) await send(big, 'POST', `/v1/auth/cloud/role/r${i}`, { auth_type: 'ec2', bound_ami_id: 'ami-1', token_policies: ['x'.repeat(1000)] })
    const snapshot = JSON.stringify(big.snapshot())

    const doppel = createDoppel({ maxStateBytes: LIMIT })
    doppel.cloud.createPrincipal({ type: 'user', name: 'kept' })
    const before = stateOf(doppel)
    const put = await send(doppel, 'PUT', '/_doppel/snapshot', snapshot)
    expect(put.status).toBe(400)
    expect(JSON.parse(put.text)).toEqual({ errors: [`Failed to read the snapshot: it is larger than the state's limit of ${LIMIT} bytes`] })
    const roles = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, { auth_type: 'ec2', bound_ami_id: 'ami-1', token_policies: ['x'.repeat(1000)] }]))
    const fixtures = await send(doppel, 'POST', '/_doppel/fixtures', JSON.stringify({ version: 1, auth: { roles } }))
    expect(fixtures.status).toBe(400)
    expect(fixtures.text).toContain(`limit of ${LIMIT} bytes`)
    expect(stateOf(doppel)).toBe(before)
    // The control API's own writes: 413 in its envelope once the roles have filled the state.
    expect((await fillWithRoles(doppel)).status).toBe(413)
    const full = stateOf(doppel)
    const principal = await send(doppel, 'POST', '/_doppel/cloud/principals', { type: 'user', name: 'late', path: `/${'p'.repeat(500)}/` })
    expect(principal.status).toBe(413)
    expect(JSON.parse(principal.text)).toEqual({ errors: [expect.stringContaining(`limit of ${LIMIT} bytes`)] })
    expect(stateOf(doppel)).toBe(full)
  })

  it('a state at the default limit reads back through GET /_doppel/snapshot and /_doppel/state', async () => {
    const doppel = createDoppel()
    const limit = doppel.store.maxBytes
    // Most of it in one restore (the registry's archives), the rest role by role up to the refusal.
    const chunk = 'A'.repeat(1024 * 1024)
    const versions = Array.from({ length: Math.floor(limit / chunk.length) - 2 }, (_, i) => `modver-${i}`)
    const snapshot: any = JSON.parse(JSON.stringify(createDoppel().snapshot()))
    snapshot.domains.registry = {
      organizations: [{ name: 'acme', createdAt: '2026-01-01T00:00:00.000Z' }],
      tokens: [],
      modules: [{ id: 'mod-1', organization: 'acme', name: 'vpc', provider: 'aws', description: '', noCode: false, downloads: 0, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' }],
      versions: versions.map((id, i) => ({
        id, moduleId: 'mod-1', organization: 'acme', name: 'vpc', provider: 'aws', version: `1.0.${i}`, status: 'pending', commitSha: null,
        createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', publishedAt: null, uploadObject: `up-${i}`, downloadObject: `down-${i}`,
        deprecation: null, revocation: null, contents: null,
      })),
      archives: versions.map((versionId) => ({ versionId, base64: chunk })),
    }
    doppel.restore(snapshot)
    const refused = await fillWithRoles(doppel, 200)
    expect(refused.status).toBe(413)
    expect(doppel.store.bytes).toBeGreaterThan(limit - 10_000)
    for (const path of ['/_doppel/snapshot', '/_doppel/state']) {
      const reply = await send(doppel, 'GET', path)
      expect(reply.status, path).toBe(200)
      expect(reply.text.length).toBeGreaterThan(limit - 100_000)
      expect(JSON.parse(reply.text)).toBeTypeOf('object')
    }
  }, 60_000)

  it('Infinity turns the limit off and measures no record; a data directory refuses it', async () => {
    const measured = (doppel: Doppel) => {
      const sizes: number[] = []
      const stringify = JSON.stringify
      // Every JSON text made while the write runs: the record's measure is one of them when sizes are counted.
      JSON.stringify = ((...args: Parameters<typeof stringify>) => {
        const text = stringify(...args)
        sizes.push(text?.length ?? 0)
        return text
      }) as typeof stringify
      try {
        doppel.cloud.createPrincipal({ type: 'user', name: `p-${'x'.repeat(40)}` })
      } finally {
        JSON.stringify = stringify
      }
      return sizes
    }
    const limited = createDoppel({ maxStateBytes: LIMIT })
    const unlimited = createDoppel({ maxStateBytes: Infinity })
    expect(measured(limited).length).toBeGreaterThan(0)
    expect(measured(unlimited)).toEqual([])
    expect(limited.store.bytes).toBeGreaterThan(0)
    expect(unlimited.store.bytes).toBe(0)
    // Past what the limited instance takes, the unlimited one goes on writing, replacing and deleting.
    expect((await fillWithRoles(limited)).status).toBe(413)
    for (let i = 0; i < 300; i++) expect((await send(unlimited, 'POST', `/v1/auth/cloud/role/r${i}`, { auth_type: 'ec2', bound_ami_id: 'ami-1' })).status).toBe(204)
    expect((await send(unlimited, 'POST', '/v1/auth/cloud/role/r0', { auth_type: 'ec2', bound_ami_id: 'ami-2' })).status).toBe(204)
    expect((await send(unlimited, 'DELETE', '/v1/auth/cloud/role/r1')).status).toBe(204)
    expect(unlimited.store.bytes).toBe(0)
    expect(() => createDoppel({ maxStateBytes: -1 })).toThrow('maxStateBytes must be a whole number above 0, or Infinity for no limit, not -1')
    await expect(openDataDir(unlimited, { dir: tempDir('unlimited') })).rejects.toThrow('a data directory needs a state size limit (maxStateBytes is Infinity)')
  })
})
