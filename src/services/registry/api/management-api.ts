import { mediaType, readBodyBytes } from '../../../core/http.ts'
import { authenticateRequest, canAccess, noAccess, routeMiss, tokenRefusal } from './access.ts'
import { applyVersionPatch } from './apply-version-patch.ts'
import { parseCreateModule } from './create-module-body.ts'
import { parseCreateVersion } from './create-version-body.ts'
import type { RegistryCaller, ModuleVersion, RegistryModule } from '../glossary.ts'
import { JSON_API, jsonApiResponse } from './json-api.ts'
import { parseJsonDocument } from './json-document.ts'
import { ORGANIZATION_NAME } from '../model/names.ts'
import { paginate } from './paginate.ts'
import { registryErrors } from './registry-error.ts'
import {
  coordinates,
  ensureOrganization,
  findModule,
  findVersion,
  newId,
  newObjectId,
  now,
  type RegistryState,
} from '../model/registry-state.ts'
import { mount, RouteTable } from '../../../core/routing/index.ts'
import { V2_PREFIX } from '../urls.ts'
import { deprecationDocument, moduleResource, versionResource } from './v2-documents.ts'
import { parseVersionPatch } from './version-patch.ts'
import { LightResponse } from '../../../core/light-response.ts'

/** JSON request bodies above this are refused with a 413. */
export const JSON_BODY_LIMIT = 1024 * 1024

const ORG = 'organizations/:org/registry-modules'
const PRIVATE = `${ORG}/private/:namespace`
const LEGACY = 'registry-modules'

/** Every `/api/v2` route; deprecated aliases map to the same operations (docs/reference/registry.md §3). */
export const MANAGEMENT_ROUTES = new RouteTable(
  mount(V2_PREFIX, [
    { method: 'GET', path: 'ping', operation: 'ping' },
    { method: 'GET', path: ORG, operation: 'listModules' },
    { method: 'POST', path: ORG, operation: 'createModule' },
    { method: 'GET', path: `${PRIVATE}/:name/:provider`, operation: 'showModule' },
    { method: 'GET', path: `${LEGACY}/show/:namespace/:name/:provider`, operation: 'showModule' },
    { method: 'GET', path: `${LEGACY}/:id`, operation: 'showModuleById' },
    { method: 'POST', path: `${PRIVATE}/:name/:provider/versions`, operation: 'createVersion' },
    { method: 'POST', path: `${LEGACY}/actions/delete/:namespace/:name/:provider/:version`, operation: 'deleteVersion' },
    { method: 'POST', path: `${LEGACY}/actions/delete/:namespace/:name/:provider`, operation: 'deleteProvider' },
    { method: 'POST', path: `${LEGACY}/actions/delete/:namespace/:name`, operation: 'deleteModule' },
    { method: 'POST', path: `${LEGACY}/:namespace/:name/:provider/versions`, operation: 'createVersion' },
    { method: 'GET', path: `${PRIVATE}/:name/:provider/version`, operation: 'showVersion' },
    { method: 'PATCH', path: `${PRIVATE}/:name/:provider/:version`, operation: 'patchVersion' },
    { method: 'DELETE', path: `${PRIVATE}/:name/:provider/:version`, operation: 'deleteVersion' },
    { method: 'DELETE', path: `${PRIVATE}/:name/:provider`, operation: 'deleteProvider' },
    { method: 'DELETE', path: `${PRIVATE}/:name`, operation: 'deleteModule' },
  ] as const),
  { decode: true },
)

type Operation = (typeof MANAGEMENT_ROUTES)['rows'][number]['operation']

interface Call {
  state: RegistryState
  caller: RegistryCaller
  params: Record<string, string>
  url: URL
  body: Uint8Array
}

const WRITES = new Set(['POST', 'PATCH', 'DELETE'])

/** The management API under `/api/v2`. Throws RegistryError values; the service shapes them. */
export async function managementApi(request: Request, state: RegistryState, url: URL): Promise<Response> {
  const match = MANAGEMENT_ROUTES.match(request.method, url.pathname)
  if (typeof match === 'number') throw registryErrors.notFound().explain(routeMiss(request.method, url.pathname, MANAGEMENT_ROUTES))
  if (match.row.operation === 'ping') return ping()
  const write = WRITES.has(request.method)
  const body = write ? await readBodyBytes(request, JSON_BODY_LIMIT) : new Uint8Array(0)
  const caller = authenticateRequest(state, request)
  if (!caller) throw registryErrors.unauthorized().explain(tokenRefusal(request))
  // @note Required on every write, even without a body (docs/reference/registry.md §1.2).
  if (write && mediaType(request) !== JSON_API) throw registryErrors.invalidContentType()
  return HANDLERS[match.row.operation]({ state, caller, params: match.params, url, body })
}

/** go-tfe reads these headers when it builds a client (docs/reference/registry.md §4.3). */
function ping(): Response {
  return new LightResponse(null, {
    status: 200,
    headers: {
      'TFP-API-Version': '2.6',
      'TFP-AppName': 'HCP Terraform',
      'X-RateLimit-Limit': '30',
      'X-TFE-Version': 'v202508-1',
    },
  })
}

/** The organisation a route names; `:namespace` must repeat `:org` for private modules. */
function organizationOf(call: Call): string {
  const { org, namespace } = call.params
  const organization = org ?? namespace!
  if (namespace !== undefined && namespace !== organization) {
    throw registryErrors.notFound({ rule: 'namespace of a private module', seen: namespace, expected: `${organization} (the organization)` })
  }
  // @note The root token brings any well-named organisation into being, so set-up is one call.
  if (!ORGANIZATION_NAME.test(organization)) throw registryErrors.notFound({ rule: 'organization name', seen: organization })
  if (!canAccess(call.caller, organization)) throw registryErrors.notFound(noAccess(call.caller, organization))
  return organization
}

function moduleOf(call: Call): RegistryModule {
  const organization = organizationOf(call)
  const module = findModule(call.state, organization, call.params.name!, call.params.provider!)
  if (!module) throw registryErrors.notFound({ rule: 'module', seen: `${organization}/${call.params.name}/${call.params.provider}, not in the registry` })
  return module
}

function versionOf(call: Call, version: string | null): ModuleVersion {
  const module = moduleOf(call)
  const record = version === null ? undefined : findVersion(call.state, module.organization, module.name, module.provider, version)
  if (!record) throw registryErrors.notFound({ rule: 'module version', seen: `${module.organization}/${module.name}/${module.provider} ${version ?? '(none)'}, not in the registry` })
  return record
}

/** Removes versions (and their archives); a module left without versions goes too (docs/reference/registry.md §3.5). */
function removeVersions(state: RegistryState, module: RegistryModule, versions: readonly ModuleVersion[]): void {
  for (const version of versions) {
    state.versions.delete(version.id)
    state.archives.delete(version.id)
  }
  if (state.versions.findBy('module', module.id).length === 0) state.modules.delete(module.id)
}

const noContent = () => new LightResponse(null, { status: 204 })

const HANDLERS: Record<Exclude<Operation, 'ping'>, (call: Call) => Response> = {
  listModules(call) {
    const organization = organizationOf(call)
    const q = call.url.searchParams.get('q')?.toLowerCase()
    const provider = call.url.searchParams.get('filter[provider]')
    const registryName = call.url.searchParams.get('filter[registry_name]')
    const orgFilter = call.url.searchParams.get('filter[organization_name]')
    const modules = call.state.modules
      .findBy('organization', organization)
      .filter(
        (m) =>
          (!q || m.name.toLowerCase().includes(q)) &&
          (!provider || m.provider === provider) &&
          (!registryName || registryName === 'private') &&
          (!orgFilter || orgFilter === organization),
      )
    const page = paginate(modules, call.url, call.state.emulator.basePath)
    return jsonApiResponse(200, {
      data: page.items.map((m) => moduleResource(call.state, m)),
      links: page.links,
      meta: { pagination: page.pagination },
    })
  },

  createModule(call) {
    const organization = organizationOf(call)
    const input = parseCreateModule(parseJsonDocument(call.body))
    if (findModule(call.state, organization, input.name, input.provider)) {
      throw registryErrors.invalidAttribute('/data/attributes/name', 'taken', input.name)
    }
    const at = now(call.state)
    const module: RegistryModule = {
      id: newId(call.state, 'mod'),
      organization,
      name: input.name,
      provider: input.provider,
      description: '',
      noCode: input.noCode,
      downloads: 0,
      createdAt: at,
      updatedAt: at,
    }
    ensureOrganization(call.state, organization)
    call.state.modules.set(module)
    return jsonApiResponse(201, { data: moduleResource(call.state, module) })
  },

  showModule(call) {
    return jsonApiResponse(200, { data: moduleResource(call.state, moduleOf(call)) })
  },

  showModuleById(call) {
    const module = call.state.modules.get(call.params.id!)
    if (!module) throw registryErrors.notFound({ rule: 'module id', seen: `${call.params.id}, not in the registry` })
    if (!canAccess(call.caller, module.organization)) throw registryErrors.notFound(noAccess(call.caller, module.organization))
    return jsonApiResponse(200, { data: moduleResource(call.state, module) })
  },

  createVersion(call) {
    const module = moduleOf(call)
    const input = parseCreateVersion(parseJsonDocument(call.body))
    if (findVersion(call.state, module.organization, module.name, module.provider, input.version)) {
      throw registryErrors.invalidAttribute('/data/attributes/version', 'taken', input.version)
    }
    const at = now(call.state)
    const version: ModuleVersion = {
      id: newId(call.state, 'modver'),
      moduleId: module.id,
      organization: module.organization,
      name: module.name,
      provider: module.provider,
      version: input.version,
      status: 'pending',
      commitSha: input.commitSha,
      createdAt: at,
      updatedAt: at,
      publishedAt: null,
      uploadObject: newObjectId(call.state),
      downloadObject: newObjectId(call.state),
      deprecation: null,
      revocation: null,
      contents: null,
    }
    call.state.versions.set(version)
    return jsonApiResponse(201, { data: versionResource(call.state, call.url, version) })
  },

  showVersion(call) {
    const version = versionOf(call, call.url.searchParams.get('module_version'))
    return jsonApiResponse(200, { data: versionResource(call.state, call.url, version) })
  },

  patchVersion(call) {
    const version = versionOf(call, call.params.version!)
    const patch = parseVersionPatch(parseJsonDocument(call.body))
    const updated = applyVersionPatch(call.state, version, patch)
    call.state.versions.set(updated)
    const revocation = patch.kind === 'revoke' || patch.kind === 'unrevoke'
    return jsonApiResponse(200, revocation ? { data: versionResource(call.state, call.url, updated) } : deprecationDocument(updated))
  },

  deleteVersion(call) {
    const version = versionOf(call, call.params.version!)
    removeVersions(call.state, call.state.modules.get(version.moduleId)!, [version])
    return noContent()
  },

  deleteProvider(call) {
    const module = moduleOf(call)
    removeVersions(call.state, module, call.state.versions.findBy('module', module.id))
    call.state.modules.delete(module.id)
    return noContent()
  },

  deleteModule(call) {
    const organization = organizationOf(call)
    const modules = call.state.modules.findBy('name', coordinates(organization, call.params.name!))
    if (modules.length === 0) throw registryErrors.notFound({ rule: 'module', seen: `${organization}/${call.params.name}, not in the registry` })
    for (const module of modules) {
      removeVersions(call.state, module, call.state.versions.findBy('module', module.id))
      call.state.modules.delete(module.id)
    }
    return noContent()
  },
}
