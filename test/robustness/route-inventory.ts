import { openApiDocument } from '../../src/features/openapi/index.ts'
import { MAX_BODY_BYTES } from '../../src/core/http.ts'
import { CONTROL_BODY_LIMITS, routeTemplate } from '../../src/core/routing/index.ts'
import { API_ROUTES, AUTH_API_PREFIX } from '../../src/services/cloud-auth/index.ts'
import { CONTROL_TABLE } from '../../src/features/doppel/index.ts'
import { QUERY_ACTIONS, QUERY_BODY_LIMIT } from '../../src/services/fake-cloud/index.ts'
import { ARCHIVE_LIMIT, JSON_BODY_LIMIT } from '../../src/services/registry/index.ts'

/**
 * Every route doppel serves, read from what the services declare: the OpenAPI document (generated from the
 * auth method's and the registry's route tables), the one control table (every owner's rows), the fake cloud's query
 * actions. The one module of the robustness corpus that reads route tables: when their shape changes,
 * only this adapter changes.
 */

type Service = 'cloud-auth' | 'registry' | 'fake-cloud' | 'control'

export interface RouteRow {
  service: Service
  /** `LIST` for the auth method's list paths (the document's `get` on a path ending in `/`). */
  method: string
  /** The path template as its table writes it: `{name}` (document), `:name` and `*` (control). */
  path: string
  /** The body limit in bytes, on routes that read a body. */
  limit?: number
  /** Whether an empty body is refused (the control table says so per route). */
  bodyRequired?: boolean
  /** The body's fields, where the route declares them (the auth method's field schemas). */
  fields?: string[]
  /** The auth method's rows that read the request themselves: no `?list=` or body is read before they run. */
  readsRequest?: boolean
}

/** A route's key in the corpus's hand table: `METHOD path`. */
export const routeKey = (row: Pick<RouteRow, 'method' | 'path'>): string => `${row.method} ${row.path}`

const WRITES = new Set(['POST', 'PUT', 'PATCH'])

/** What the adapter reads of a document operation. */
interface Operation {
  tags?: string[]
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } } | undefined> }
}

/** The document paths of the auth method's rows that read the request themselves. */
const REQUEST_ROWS = new Set(API_ROUTES.filter((row) => row.reads === 'request').map((row) => `${AUTH_API_PREFIX}${routeTemplate(row).template}`))

/** doppel's OpenAPI document, generated once for the inventory. */
const DOCUMENT = await openApiDocument()

function documentRoutes(): RouteRow[] {
  const rows: RouteRow[] = []
  const paths = DOCUMENT.paths as Record<string, Record<string, Operation>>
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (typeof operation !== 'object' || !Array.isArray(operation.tags)) continue
      const service: Service = operation.tags.includes('registry') ? 'registry' : 'cloud-auth'
      const upper = service === 'cloud-auth' && method === 'get' && path.endsWith('/') ? 'LIST' : method.toUpperCase()
      const fields = service === 'cloud-auth' ? Object.keys(operation.requestBody?.content['application/json']?.schema.properties ?? {}) : []
      rows.push({
        service,
        method: upper,
        path,
        ...bodyLimit(service, upper, path),
        ...(fields.length > 0 && { fields }),
        ...(service === 'cloud-auth' && REQUEST_ROWS.has(path) && { readsRequest: true }),
      })
    }
  }
  return rows
}

/** The auth method reads the body of every write; the registry of every management write and an upload. */
function bodyLimit(service: Service, method: string, path: string): Pick<RouteRow, 'limit'> {
  if (service === 'cloud-auth') return WRITES.has(method) ? { limit: MAX_BODY_BYTES } : {}
  if (path.startsWith('/_archivist/')) return method === 'PUT' ? { limit: ARCHIVE_LIMIT } : {}
  return path.startsWith('/api/v2/') && (WRITES.has(method) || method === 'DELETE') ? { limit: JSON_BODY_LIMIT } : {}
}

function controlRoutes(): RouteRow[] {
  return CONTROL_TABLE.rows.map((route) => ({
    service: 'control',
    method: route.method,
    path: route.path,
    ...(route.body && { limit: CONTROL_BODY_LIMITS[route.body.limit], bodyRequired: route.body.required === true }),
  }))
}

/** The query actions under their SDK endpoint mounts, and the metadata service, whose tree has no table. */
function cloudRoutes(): RouteRow[] {
  const rows: RouteRow[] = Object.entries(QUERY_ACTIONS).flatMap(([service, actions]) =>
    actions.map((action): RouteRow => ({ service: 'fake-cloud', method: 'POST', path: `/_doppel/cloud/${service}?Action=${action}`, limit: QUERY_BODY_LIMIT })),
  )
  rows.push(
    { service: 'fake-cloud', method: 'GET', path: '/_doppel/cloud/imds/:id/latest/*' },
    { service: 'fake-cloud', method: 'PUT', path: '/_doppel/cloud/imds/:id/latest/api/token' },
  )
  return rows
}

/** Every route of every service. */
export function routeInventory(): RouteRow[] {
  return [...documentRoutes(), ...controlRoutes(), ...cloudRoutes()]
}
