import { isDoppelError, type DoppelErrorCode } from '../../core/doppel-error.ts'
import type { RequestContext } from '../../core/glossary.ts'
import { jsonResponse, requestUrl } from '../../core/http.ts'
import { LightResponse } from '../../core/light-response.ts'
import { explainResponse, explanationOf, listText, type Explanation } from '../../core/explanation.ts'
import { requestToken, tokenPlaces } from '../../core/request-token.ts'
import { refused, type ControlAccess, type ControlAnswer, type ControlCall, type ControlRoute, type RouteTable } from '../../core/routing/index.ts'
import { bodyRefusal, readControlBody } from './control-body.ts'
import { hasManagementToken } from './management-token.ts'

/**
 * Every route under `/_doppel/`: the control API's own (`control-routes.ts`) and those of the services
 * and features it sets up, put together on the features floor (`features/doppel/control-table.ts`).
 */
export type ControlTable = RouteTable<ControlRoute>

export interface ControlOptions {
  /** The caller holds a management token whatever the request carries (in-process calls). */
  management?: boolean
}

/**
 * Who may call `method path` (for the server's guard), or undefined when no route answers it. Paths are
 * the request's, untrimmed: a query or a path the table does not know is guarded as `control`.
 */
export function controlAccess(table: ControlTable, method: string, path: string): ControlAccess | undefined {
  const match = table.match(method, path)
  if (typeof match !== 'number') return match.row.access
  // A HEAD reads what its GET reads: open where that is.
  return method === 'HEAD' ? controlAccess(table, 'GET', path) : undefined
}

/** The media types a control write to `path` may declare (JSON, or YAML too for fixtures). */
export function controlBodyTypes(table: ControlTable, method: string, path: string): readonly string[] | undefined {
  const match = table.match(method, path)
  return typeof match === 'number' ? undefined : match.row.body?.types
}

/**
 * The control API under `/_doppel/` (the fake cloud's AWS faces excepted): one route table, one body
 * reader, one set of refusals, `{"errors":["…"]}` for all of them.
 */
export async function control(request: Request, context: RequestContext, table: ControlTable, options: ControlOptions = {}): Promise<Response> {
  const url = requestUrl(request, context)
  const path = url.pathname.replace(/\/+$/, '')
  const match = table.match(request.method, path)
  if (match === 404) {
    return answer(refused(404, `unsupported path: ${request.method} ${path}`), {
      rule: 'control route',
      seen: path,
      expected: `the nearest control routes: ${listText(table.nearest(path))}`,
      hint: 'docs/api and the README list the control API',
    })
  }
  if (match === 405) {
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((method) => typeof table.match(method, path) !== 'number')
    return answer(refused(405, 'unsupported operation'), { rule: 'control route method', seen: request.method, expected: listText(methods) })
  }
  const route = match.row
  // Hashing the offered token costs a little: only routes that ask pay for it, and only once.
  let held = options.management
  const management = () => (held ??= hasManagementToken(request, context))
  if (route.access === 'management' && !management()) {
    return answer(refused(403, 'permission denied'), {
      rule: 'management token',
      seen: requestToken(request, context.profile) === undefined ? 'no token' : 'a token that is not a root or control token',
      hint: `${request.method} ${path} reads or replaces secrets: send a root token (or --control-token) in ${tokenPlaces(context.profile)}`,
    })
  }
  const claimed = route.claim?.(context)
  if (claimed !== undefined && typeof claimed !== 'function') return answer(claimed)
  try {
    const read = route.body ? await readControlBody(request, route.body) : { value: undefined }
    if (read.refusal) return bodyRefusal(read.refusal)
    const body = read.value
    const call: ControlCall = {
      request,
      context,
      url,
      params: match.params,
      rest: match.rest,
      body,
      get management() {
        return management()
      },
    }
    return answer(await route.run(call))
  } catch (error) {
    if (error instanceof URIError) return answer(refused(400, 'invalid path: malformed percent-encoding'), { rule: 'path encoding', seen: path })
    const status = refusalStatus(error)
    if (status === undefined) throw error
    return answer(refused(status, (error as Error).message), explanationOf(error, `${request.method} ${path}`))
  } finally {
    claimed?.()
  }
}

/**
 * Errors of the core's own input checks, by code: 400 with their message. (A service or feature whose
 * set-up routes throw its own errors maps them in its rows, as the fake cloud's and the tenants' do.)
 */
const BAD_INPUT: readonly DoppelErrorCode[] = ['DOPPEL_INVALID_FAULT', 'DOPPEL_INVALID_DURATION', 'DOPPEL_INVALID_SNAPSHOT']

/** The status of an error a route refuses with; undefined for one that is a bug. */
function refusalStatus(error: unknown): number | undefined {
  if (isDoppelError(error, 'DOPPEL_STATE_TOO_LARGE')) return 413
  if (isDoppelError(error, 'DOPPEL_BUSY')) return 503
  return error instanceof RangeError || BAD_INPUT.some((code) => isDoppelError(error, code)) ? 400 : undefined
}

/** The answer; a refusal's explanation beside it (a route's own `refused` names the route and its message). */
function answer(result: ControlAnswer, why?: Explanation): Response {
  if ('headers' in result) return result
  const response = result.body === undefined ? new LightResponse(null, { status: result.status }) : jsonResponse(result.status, result.body)
  if (result.status < 400) return response
  const errors = (result.body as { errors?: unknown } | undefined)?.errors
  return explainResponse(response, why ?? { rule: 'control route', seen: Array.isArray(errors) ? errors.join('; ') : `status ${result.status}` })
}
