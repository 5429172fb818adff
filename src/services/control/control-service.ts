import type { RequestContext } from '../../core/glossary.ts'
import { StateTooLargeError } from '../../core/store.ts'
import { DurationError } from '../../core/duration.ts'
import { FaultError } from '../../core/faults.ts'
import { jsonResponse, requestUrl } from '../../core/http.ts'
import { LightResponse } from '../../core/light-response.ts'
import { SnapshotError } from '../../core/snapshot/shape.ts'
import { controlStatus } from '../fake-cloud/cloud-control.ts'
import { CloudError } from '../fake-cloud/glossary.ts'
import { TenantNameError } from '../../features/tenants/tenant-name.ts'
import { readControlBody } from './control-body.ts'
import { refused, type CompiledRoute, type ControlAccess, type ControlAnswer, type ControlCall } from './control-route.ts'
import { CONTROL_ROUTES } from './control-routes.ts'
import { hasManagementToken } from './management-token.ts'

export interface ControlOptions {
  /** The caller holds a management token whatever the request carries (in-process calls). */
  management?: boolean
}

/** The route a path and method reach, or why none: 404 (no such path) or 405 (not this method). */
function findRoute(method: string, path: string): CompiledRoute | 404 | 405 {
  let pathKnown = false
  for (const route of CONTROL_ROUTES) {
    if (!route.matcher.test(path)) continue
    if (route.method === method) return route
    pathKnown = true
  }
  return pathKnown ? 405 : 404
}

/**
 * Who may call `method path` (for the server's guard), or undefined when no route answers it. Paths are
 * the request's, untrimmed: a query or a path the table does not know is guarded as `control`.
 */
export function controlAccess(method: string, path: string): ControlAccess | undefined {
  const route = findRoute(method, path)
  if (typeof route !== 'number') return route.access
  // A HEAD reads what its GET reads: open where that is.
  return method === 'HEAD' ? controlAccess('GET', path) : undefined
}

/** The media types a control write to `path` may declare (JSON, or YAML too for fixtures). */
export function controlBodyTypes(method: string, path: string): readonly string[] | undefined {
  const route = findRoute(method, path)
  return typeof route === 'number' ? undefined : route.body?.types
}

/**
 * The control API under `/_doppel/` (the fake cloud's AWS faces excepted): one route table
 * (`control-routes.ts`), one body reader, one set of refusals, `{"errors":["…"]}` for all of them.
 */
export async function control(request: Request, context: RequestContext, options: ControlOptions = {}): Promise<Response> {
  const url = requestUrl(request, context)
  const path = url.pathname.replace(/\/+$/, '')
  const route = findRoute(request.method, path)
  if (route === 404) return answer(refused(404, `unsupported path: ${request.method} ${path}`))
  if (route === 405) return answer(refused(405, 'unsupported operation'))
  // Hashing the offered token costs a little: only routes that ask pay for it, and only once.
  let held = options.management
  const management = () => (held ??= hasManagementToken(request, context))
  if (route.access === 'management' && !management()) return answer(refused(403, 'permission denied'))
  try {
    const read = route.body ? await readControlBody(request, route.body) : { value: undefined }
    if (read.refusal) return answer(refused(read.refusal.status, read.refusal.message))
    const body = read.value
    const params = route.matcher.match(path) ?? {}
    const rest = route.prefix === undefined ? '' : path.slice(route.prefix.length)
    const call: ControlCall = {
      request,
      context,
      url,
      params,
      rest,
      body,
      get management() {
        return management()
      },
    }
    return answer(await route.run(call))
  } catch (error) {
    if (error instanceof URIError) return answer(refused(400, 'invalid path: malformed percent-encoding'))
    const status = refusalStatus(error)
    if (status === undefined) throw error
    return answer(refused(status, (error as Error).message))
  }
}

/** Errors of the domains' own input checks: 400 with their message. */
const BAD_INPUT = [FaultError, DurationError, RangeError, TenantNameError, SnapshotError] as const

/** The status of an error a route refuses with; undefined for one that is a bug. */
function refusalStatus(error: unknown): number | undefined {
  if (error instanceof CloudError) return controlStatus(error)
  if (error instanceof StateTooLargeError) return 413
  return BAD_INPUT.some((type) => error instanceof type) ? 400 : undefined
}

function answer(result: ControlAnswer): Response {
  if ('headers' in result) return result
  return result.body === undefined ? new LightResponse(null, { status: result.status }) : jsonResponse(result.status, result.body)
}
