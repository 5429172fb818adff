import { readBodyBytes } from '../../../core/http.ts'
import { ArchiveError, readModuleArchive } from '../archives/read-module-archive.ts'
import { registryErrors } from './registry-error.ts'
import { now, type RegistryState } from '../model/registry-state.ts'
import { RouteTable } from '../../../core/routing/index.ts'
import { syntheticArchive } from '../archives/synthetic-archive.ts'
import { LightResponse } from '../../../core/light-response.ts'

/** Tarball uploads above this are refused with a 413. */
export const ARCHIVE_LIMIT = 50 * 1024 * 1024

export const ARCHIVIST_ROUTES = new RouteTable(
  [
    { method: 'PUT', path: '/_archivist/v1/object/:object', operation: 'upload' },
    { method: 'GET', path: '/_archivist/v1/object/:object', operation: 'download' },
  ] as const,
  { decode: true },
)

/**
 * The blob store behind upload and download links. The object id in the URL is the credential, so no
 * Authorization header is needed (Terraform sends none when it downloads, docs/reference/registry.md §2.4).
 */
export async function archivist(request: Request, state: RegistryState, url: URL): Promise<Response> {
  const match = ARCHIVIST_ROUTES.match(request.method, url.pathname)
  if (typeof match === 'number') throw registryErrors.notFound()
  const object = match.params.object!
  if (match.row.operation === 'download') {
    const version = state.versions.findOneBy('download', object)
    if (!version) throw registryErrors.notFound({ rule: 'download object', seen: 'an object id no version holds' })
    if (version.status !== 'ok') throw registryErrors.notFound({ rule: 'download object', seen: `version ${version.version}, ${version.status}`, expected: 'an uploaded archive (status ok)' })
    const stored = state.archives.get(version.id)
    const bytes = stored ? Buffer.from(stored.base64, 'base64') : syntheticArchive(version.contents!)
    return new LightResponse(new Uint8Array(bytes), { status: 200, headers: { 'Content-Type': 'application/x-gzip' } })
  }
  const version = state.versions.findOneBy('upload', object)
  if (!version) throw registryErrors.notFound({ rule: 'upload object', seen: 'an object id no version holds' })
  if (version.status === 'ok') throw registryErrors.conflict(`version ${version.version} has already been uploaded`)
  const bytes = await readBodyBytes(request, ARCHIVE_LIMIT)
  let contents
  try {
    contents = readModuleArchive(bytes)
  } catch (error) {
    if (error instanceof ArchiveError) throw registryErrors.invalidArchive(error.message)
    throw error
  }
  const at = now(state)
  state.archives.set({ versionId: version.id, base64: Buffer.from(bytes).toString('base64') })
  try {
    state.versions.set({ ...version, status: 'ok', contents, publishedAt: at, updatedAt: at })
  } catch (error) {
    // Past the state's size limit: the upload leaves nothing behind (a pending version has no archive).
    state.archives.delete(version.id)
    throw error
  }
  return new LightResponse(null, { status: 200 })
}
