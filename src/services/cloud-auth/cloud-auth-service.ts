/**
 * The cloud auth service: every path under `/v1/`, from one table (`routing/api-routes.ts`). Decode the
 * path → redirect it if it is not clean → strip the prefix → match a row → read the operation unless the
 * row reads the request itself → refuse a write to a path ending in `/` → check the token unless the row
 * says not → run.
 */
import type { RequestContext } from '../../core/glossary.ts'
import { requestUrl } from '../../core/http.ts'
import { answerError } from './answer-error.ts'
import { authProfile, badInputStatusCode } from './auth-profile.ts'
import { checkListenerBody } from './request-body.ts'
import { explainResponse, listText } from '../../core/explanation.ts'
import { tokenExplanation } from './tokens/token-refusal.ts'
import { authError, multiError } from './envelope.ts'
import { MESSAGES } from './auth-messages.ts'
import { mountTable, TOKEN_MOUNT } from './mounts/mount-table.ts'
import { httpOperation } from './routing/http-operation.ts'
import { requestToken } from '../../core/request-token.ts'
import { runEndpoint } from './routing/run-endpoint.ts'
import { authState } from './state.ts'
import { runPeriodicTidy } from './tidy/remove-expired.ts'
import { addressIsAllowed, TOKENS_DOMAIN, type TokenStore } from './tokens/index.ts'
import type { RouteMatch } from '../../core/routing/index.ts'
import { elsewhere, matchApiRoute, type MountPoint } from './routing/api-routes.ts'
import type { ApiRoute, OperationCall, RouteToken } from './routing/api-route.ts'
import { AUTH_API_PREFIX } from './urls.ts'
import { cleanPathRedirect } from './routing/clean-path.ts'

/**
 * The cloud auth service under `/v1/`, and its edge: whatever a step throws is answered here, once, by
 * `answerError` (login answers its own, unwrapped).
 */
export async function cloudAuth(request: Request, context: RequestContext): Promise<Response> {
  try {
    return await serve(request, context)
  } catch (error) {
    return answerError(error, 'authenticated', authProfile(context.profile))
  }
}

async function serve(request: Request, context: RequestContext): Promise<Response> {
  const { listenerJsonLimits } = authProfile(context.profile)
  if (listenerJsonLimits) {
    const refused = await checkListenerBody(request, listenerJsonLimits)
    if (refused) {
      // Vault's listener answers it itself, before any route: the scan's words, not wrapped.
      const why = {
        rule: "the listener's JSON check (Vault 1.21), before any route or token check",
        seen: refused.message,
        expected: 'one JSON value with no key repeated in an object, at most 300 levels deep, 1 MiB a string and 10,000 entries a collection',
      }
      return explainResponse(authError(refused.tooLarge ? 413 : badInputStatusCode(context.profile), refused.message), why)
    }
  }
  const url = requestUrl(request, context)
  let path = url.pathname
  if (path.includes('%')) {
    try {
      path = decodeURIComponent(path)
    } catch {
      return explainResponse(authError(400, MESSAGES.invalidUrlEscape), {
        rule: 'path encoding',
        seen: url.pathname,
        expected: 'a path whose %-escapes decode to UTF-8 (%2F for a slash, %25 for a percent sign)',
      })
    }
  }
  const redirect = cleanPathRedirect(request, url, context.emulator.basePath)
  if (redirect) return redirect
  // A running clock moves by itself: tokens it expired go before this request is answered.
  context.emulator.sweepExpired()
  if (path.startsWith(AUTH_API_PREFIX)) path = path.slice(AUTH_API_PREFIX.length)
  const match = matchApiRoute(context.profile, path)
  if (match?.row.reads === 'request') {
    const { row, params, rest } = match
    return (row.token === 'root' && refusedToken(request, context)) || row.run({ request, context, url, path, params, rest })
  }

  const parsed = await httpOperation(request, url)
  if (parsed instanceof Response) return parsed
  if ((parsed.operation === 'update' || parsed.operation === 'patch') && path.endsWith('/')) {
    const why = { rule: 'no write to a path ending in /', seen: `${request.method} ${url.pathname}`, hint: 'drop the trailing slash' }
    return explainResponse(authError(400, MESSAGES.writeToDirectory), why)
  }
  // A LIST is routed with a trailing slash, as the real service's list paths are written.
  const at = parsed.operation === 'list' && !path.endsWith('/') ? `${path}/` : path
  const route = routeOf(at === path ? match : matchApiRoute(context.profile, at), { request, context, url, path: at, ...parsed })
  return route.before?.() || (route.token === 'root' && refusedToken(request, context)) || route.run()
}

/** A request's route, ready to run: the row's, a mount's row's, or the 404 of a path no row has. */
interface Route {
  token: RouteToken
  /** A refusal before the token check, or undefined. */
  before?: () => Response | undefined
  run(): Response | Promise<Response>
}

const noRow = (answer: () => Response): Route => ({ token: 'root', run: answer })

function routeOf(match: RouteMatch<ApiRoute | MountPoint> | undefined, input: Omit<OperationCall, 'params' | 'rest'>): Route {
  if (!match) return noRow(() => explainResponse(authError(404, MESSAGES.noHandler(input.path)), elsewhere(input.context, input.path)))
  const { row } = match
  const call: OperationCall = { ...input, params: match.params, rest: match.rest }
  if (row.reads !== 'mount') {
    const before = row.reads === 'operation' ? row.beforeToken : undefined
    return { token: row.token, ...(before && { before: () => before(call) }), run: () => row.run(call) }
  }
  // A mount point: the mount is whatever the emulator's mount table holds at the start of the rest.
  const { context } = call
  const mount = mountTable(context.emulator).resolve(call.path.slice(row.path.length - 1))
  if (!mount) return noRow(() => explainResponse(authError(404, MESSAGES.noHandler(call.path)), elsewhere(context, call.path)))
  const found = row.match(mount.relative)
  if (!found) {
    const why = { rule: 'route', seen: mount.relative, expected: `the nearest paths on the mount: ${listText(row.nearest(mount.relative))}` }
    return noRow(() => explainResponse(authError(404, multiError(MESSAGES.unsupportedPath)), why))
  }
  const endpoint = found.row
  if (!('operations' in endpoint)) {
    return { token: endpoint.token, run: () => endpoint.run({ ...call, path: mount.relative, params: found.params, rest: found.rest, mount: mount.mount }) }
  }
  return {
    token: 'root',
    run() {
      const state = authState(context.emulator, mount.mount)
      runPeriodicTidy(state, context.emulator.clock.nowMs())
      return runEndpoint(context, state, endpoint, mount.relative, found.params, call.operation, call.data)
    },
  }
}

/**
 * The refusal of a request without a root token, or undefined: a configured root token, or a live token
 * with the `root` policy (created by one, through `auth/token/create`) used from an address it is bound
 * to, whose use is counted. Any other live token is known, but its policies grant no management path: an
 * ACL refusal, which the real service reports as a multierror (docs/reference/cloud-auth.md §1.2).
 */
function refusedToken(request: Request, context: RequestContext): Response | undefined {
  const id = requestToken(request, context.profile)
  if (context.emulator.isRootToken(id)) return undefined
  const store = context.emulator.existingDomain<TokenStore>(TOKENS_DOMAIN)
  const token = id === undefined ? undefined : store?.lookup(id)
  if (token?.policies.includes('root') && addressIsAllowed(context.remoteAddress, token.bound_cidrs)) {
    store!.use(token)
    return undefined
  }
  const why = token
    ? { rule: 'root token', seen: `${token.mount === TOKEN_MOUNT ? 'a token created without the root policy' : "a login's token"}: its policies grant no management path`, hint: 'manage with a root token, or a token created with the root policy' }
    : tokenExplanation(context, store, id)
  return explainResponse(authError(403, token ? multiError(MESSAGES.permissionDenied) : MESSAGES.permissionDenied), why)
}
