/**
 * The cloud auth service: every path under `/v1/auth/<mount>/` of each mount, `sys/auth` for mounts,
 * and the token store's `lookup-self`, `renew-self` and `revoke-self`. Request → operation and data → token check → route → handler → shape.
 */
import type { RequestContext } from '../../core/glossary.ts'
import { requestUrl } from '../../core/http.ts'
import { answerError, type RefusedOn } from './answer-error.ts'
import { explainResponse, listText } from '../../core/explanation.ts'
import { tokenExplanation } from './tokens/token-refusal.ts'
import { authError, multiError } from './envelope.ts'
import { handleLogin } from './login/index.ts'
import { MESSAGES } from './auth-messages.ts'
import { mountTable, TOKEN_MOUNT } from './mounts/mount-table.ts'
import { handleSysAuth } from './mounts/sys-auth.ts'
import type { Operation } from './routing/endpoint.ts'
import { httpOperation, unsupportedOperation } from './routing/http-operation.ts'
import { requestToken } from '../../core/request-token.ts'
import { runEndpoint } from './routing/run-endpoint.ts'
import { authState } from './state.ts'
import { runPeriodicTidy } from './tidy/remove-expired.ts'
import { selfRoute, tokenStore } from './tokens/index.ts'
import { VAULT_OPENAPI_PATH, vaultOpenApi } from './vault-openapi.ts'
import { API_PREFIX } from './urls.ts'

const TOKEN_PREFIX = `auth/${TOKEN_MOUNT}/`

/**
 * The cloud auth service under `/v1/`, and its edge: whatever a step throws is answered here, once, by
 * `answerError`; `route.on` says whether the request reached `login`, whose internal errors are not wrapped.
 */
export async function cloudAuth(request: Request, context: RequestContext): Promise<Response> {
  const route: { on: RefusedOn } = { on: 'authenticated' }
  try {
    return await serve(request, context, route)
  } catch (error) {
    return answerError(error, route.on, context.profile)
  }
}

async function serve(request: Request, context: RequestContext, route: { on: RefusedOn }): Promise<Response> {
  // A running clock moves by itself: tokens it expired go before this request is answered.
  context.emulator.sweepExpired()
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
  if (path.startsWith(API_PREFIX)) path = path.slice(API_PREFIX.length)
  if (path === VAULT_OPENAPI_PATH) {
    const answer = await vaultOpenApi(request, url, context)
    if (answer) return answer
  }
  const self = path.startsWith(TOKEN_PREFIX) ? selfRoute(path.slice(TOKEN_PREFIX.length)) : undefined
  if (self) {
    if (self.methods.includes(request.method)) return self.handle(request, context)
    return ['GET', 'LIST', 'DELETE'].includes(request.method) ? unsupportedOperation(false) : authError(405)
  }

  const parsed = await httpOperation(request, url)
  if (parsed instanceof Response) return parsed
  const { operation, data } = parsed
  if (operation === 'list' && !path.endsWith('/')) path += '/'

  const mount = path.startsWith('auth/') ? mountTable(context.emulator).resolve(path.slice('auth/'.length)) : undefined
  if (mount?.relative === 'login') {
    route.on = 'login'
    return login(context, mount.mount, operation, data)
  }

  const token = requestToken(request, context.profile)
  if (!context.emulator.isRootToken(token)) {
    // A live login token is known, but its policies grant no management path: an ACL refusal, which the
    // real service reports as a multierror (docs/reference/cloud-auth.md §1.2).
    const store = isIssuedTokenForm(token) ? tokenStore(context.emulator) : undefined
    const known = store !== undefined && store.lookup(token!) !== undefined
    const why = known
      ? { rule: 'root token', seen: "a login's token: its policies grant no management path", hint: 'manage with a root token' }
      : tokenExplanation(context, store, token)
    return explainResponse(authError(403, known ? multiError(MESSAGES.permissionDenied) : MESSAGES.permissionDenied), why)
  }
  if (mount) {
    const state = authState(context.emulator, mount.mount)
    runPeriodicTidy(state, context.emulator.clock.nowMs())
    return runEndpoint(context, state, mount.relative, operation, data)
  }
  if (path === 'sys/auth' || path.startsWith('sys/auth/')) {
    return handleSysAuth(context, operation, path.slice('sys/auth'.length).replace(/^\/+|\/+$/g, ''), data)
  }
  const elsewhere = {
    rule: 'route',
    seen: `/v1/${path}`,
    hint: `the auth method answers under /v1/auth/<mount>/ (mounts here: ${listText(mountTable(context.emulator).entries().map((entry) => entry.path))}), Vault's system paths under /v1/sys/auth and /v1/auth/token/`,
  }
  if (path.startsWith(TOKEN_PREFIX)) return explainResponse(authError(404, multiError(MESSAGES.unsupportedPath)), elsewhere)
  return explainResponse(authError(404, MESSAGES.noHandler(path)), elsewhere)
}

/** Only tokens of login's forms (`hvs.`, `hvb.`) can be live ones; others never touch the token store. */
function isIssuedTokenForm(token: string | undefined): token is string {
  return token !== undefined && /^hv[sb]\./.test(token)
}

/** `login` is unauthenticated: a token sent with it is ignored. */
function login(context: RequestContext, mount: string, operation: Operation, data: Record<string, unknown>) {
  if (operation !== 'update') return unsupportedOperation(true)
  runPeriodicTidy(authState(context.emulator, mount), context.emulator.clock.nowMs())
  return handleLogin(context, mount, data)
}
