import { jsonResponse } from '../../../core/http.ts'
import { authenticateRequest, canAccess, noAccess, routeMiss, tokenRefusal } from './access.ts'
import type { ModuleVersion, RegistryModule } from '../glossary.ts'
import { registryV1ErrorResponse } from './json-api.ts'
import { linkOrigin, linkPath } from './links.ts'
import { findModule, findVersion, type RegistryState } from '../model/registry-state.ts'
import { mount, RouteTable } from '../../../core/routing/index.ts'
import { V1_PREFIX } from '../urls.ts'
import { isPrerelease } from '../model/semver.ts'
import { publishedVersions, versionRecord, versionsDocument } from './v1-records.ts'
import { LightResponse } from '../../../core/light-response.ts'

const MODULE = 'modules/:namespace/:name/:provider'

/** Registry protocol reads (docs/reference/registry.md §2); `versions` and `download` win over a version literally so named. */
export const READ_ROUTES = new RouteTable(
  mount(V1_PREFIX, [
    { method: 'GET', path: `${MODULE}/versions`, operation: 'versions' },
    { method: 'GET', path: `${MODULE}/download`, operation: 'downloadLatest' },
    { method: 'GET', path: `${MODULE}/:version/download`, operation: 'download' },
    { method: 'GET', path: `${MODULE}/:version`, operation: 'version' },
    { method: 'GET', path: MODULE, operation: 'latest' },
  ] as const),
  { decode: true },
)

/** The archivist URL a version downloads from; `archive=tar.gz` tells go-getter how to unpack it. */
function downloadUrl(origin: string, version: ModuleVersion): string {
  return `${origin}/_archivist/v1/object/${version.downloadObject}?archive=tar.gz`
}

function latest(state: RegistryState, module: RegistryModule): ModuleVersion | undefined {
  const versions = publishedVersions(state, module)
  return versions.filter((v) => !isPrerelease(v.version)).at(-1) ?? versions.at(-1)
}

/** `/api/registry/v1/modules/…`: bearer-authenticated reads with the protocol's `{"errors":[…]}` bodies. */
export function readApi(request: Request, state: RegistryState, url: URL): Response {
  const match = READ_ROUTES.match(request.method, url.pathname)
  if (typeof match === 'number') return registryV1ErrorResponse(404, routeMiss(request.method, url.pathname, READ_ROUTES))
  const caller = authenticateRequest(state, request)
  if (!caller) return registryV1ErrorResponse(401, tokenRefusal(request))
  const { namespace, name, provider } = match.params as Record<'namespace' | 'name' | 'provider', string>
  if (!canAccess(caller, namespace)) return registryV1ErrorResponse(404, noAccess(caller, namespace))
  const module = findModule(state, namespace, name, provider)
  if (!module) return registryV1ErrorResponse(404, { rule: 'module', seen: `${namespace}/${name}/${provider}, not in the registry` })
  if (match.row.operation === 'versions') return jsonResponse(200, versionsDocument(state, module))
  const version =
    match.params.version === undefined ? latest(state, module) : findVersion(state, namespace, name, provider, match.params.version)
  if (version?.status !== 'ok') {
    const seen = version ? `version ${version.version}, ${version.status}` : `${match.params.version ?? 'a latest version'}, not in the registry`
    return registryV1ErrorResponse(404, { rule: 'module version', seen, ...(version && { expected: 'an uploaded archive (status ok)' }) })
  }
  switch (match.row.operation) {
    case 'version':
    case 'latest':
      return jsonResponse(200, versionRecord(state, module, version))
    case 'downloadLatest':
      return new LightResponse(null, {
        status: 302,
        headers: { Location: linkPath(state, `${V1_PREFIX}modules/${namespace}/${name}/${provider}/${version.version}/download`) },
      })
    case 'download':
      state.modules.set({ ...module, downloads: module.downloads + 1 })
      return new LightResponse(null, { status: 204, headers: { 'X-Terraform-Get': downloadUrl(linkOrigin(state, url), version) } })
  }
}
