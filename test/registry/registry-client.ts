import { gzipSync } from 'node:zlib'
import { createDoppel, type Doppel, type DoppelOptions } from '../../src/features/doppel/index.ts'
import { writeTar } from '../../src/services/registry/index.ts'

/** HTTP-in/HTTP-out helpers for the registry tests: every call goes through `doppel.fetch`. */

export const BASE = 'http://doppel.test'
export const JSON_API = 'application/vnd.api+json'

export interface Reply {
  status: number
  headers: Headers
  body: any
  text: string
}

export function newDoppel(options: DoppelOptions = {}): Doppel {
  return createDoppel({ seed: 7, clock: { start: '2026-03-02T10:00:00Z', frozen: true }, ...options })
}

async function reply(response: Response): Promise<Reply> {
  const text = await response.text()
  let body: unknown
  try {
    body = text === '' ? undefined : JSON.parse(text)
  } catch {
    body = undefined
  }
  return { status: response.status, headers: response.headers, body, text }
}

export interface CallOptions {
  body?: unknown
  /** `null` sends no Authorization header. */
  token?: string | null
  /** `null` sends no Content-Type header. */
  contentType?: string | null
}

/** A management API call (`/api/v2…`), JSON:API content type and root token unless told otherwise. */
export async function v2(doppel: Doppel, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers = new Headers()
  const token = options.token === undefined ? 'root' : options.token
  if (token !== null) headers.set('Authorization', `Bearer ${token}`)
  const contentType = options.contentType === undefined ? JSON_API : options.contentType
  const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
  const request = new Request(`${BASE}${path}`, { method, headers, body })
  // @note fetch adds text/plain to string bodies; a test that wants no Content-Type removes it here.
  if (contentType === null) request.headers.delete('content-type')
  else request.headers.set('content-type', contentType)
  return reply(await doppel.fetch(request))
}

/** A registry protocol read (`/api/registry/v1/modules/…`). */
export async function v1(doppel: Doppel, path: string, token: string | null = 'root'): Promise<Reply> {
  const headers: Record<string, string> = token === null ? {} : { Authorization: `Bearer ${token}` }
  return reply(await doppel.fetch(`${BASE}/api/registry/v1/modules/${path}`, { headers, redirect: 'manual' }))
}

export const modulePath = (org: string, name: string, provider: string) =>
  `/api/v2/organizations/${org}/registry-modules/private/${org}/${name}/${provider}`
export const versionPath = (org: string, name: string, provider: string, version: string) =>
  `${modulePath(org, name, provider)}/${version}`

export const deprecateBody = (deprecation: Record<string, unknown> = { reason: 'CVE-2026-0001', link: 'https://example.com/a/1' }) => ({
  data: { type: 'module-versions', attributes: { deprecation: { 'deprecated-status': 'Deprecated', ...deprecation } } },
})
export const undeprecateBody = () => ({
  data: { type: 'module-versions', attributes: { deprecation: { 'deprecated-status': 'Undeprecated' } } },
})

/** A gzip tarball with the given files at its root. */
export function tarball(files: Record<string, string>): Uint8Array {
  return gzipSync(writeTar(Object.entries(files).map(([path, content]) => ({ path, content }))))
}

export async function createModule(doppel: Doppel, org: string, name: string, provider: string, token = 'root'): Promise<Reply> {
  return v2(doppel, 'POST', `/api/v2/organizations/${org}/registry-modules`, {
    token,
    body: { data: { type: 'registry-modules', attributes: { name, provider, 'registry-name': 'private' } } },
  })
}

export async function createVersion(doppel: Doppel, org: string, name: string, provider: string, version: string): Promise<Reply> {
  return v2(doppel, 'POST', `${modulePath(org, name, provider)}/versions`, {
    body: { data: { type: 'registry-module-versions', attributes: { version } } },
  })
}

/** PUTs a tarball to an upload link, as go-tfe does (no Authorization). */
export async function upload(doppel: Doppel, link: string, bytes: Uint8Array): Promise<Reply> {
  return reply(
    await doppel.fetch(link, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream' }, body: new Uint8Array(bytes) }),
  )
}

/** Creates the module (if new) and a version, and uploads its code: the real way to publish. */
export async function publish(
  doppel: Doppel,
  org: string,
  name: string,
  provider: string,
  version: string,
  files: Record<string, string> = { 'main.tf': 'variable "name" {}\n' },
): Promise<Reply> {
  const module = await createModule(doppel, org, name, provider)
  if (module.status !== 201 && module.status !== 422) throw new Error(`create module answered ${module.status}: ${module.text}`)
  const created = await createVersion(doppel, org, name, provider, version)
  if (created.status !== 201) throw new Error(`create version answered ${created.status}: ${created.text}`)
  const uploaded = await upload(doppel, created.body.data.links.upload, tarball(files))
  if (uploaded.status !== 200) throw new Error(`upload answered ${uploaded.status}: ${uploaded.text}`)
  return created
}
