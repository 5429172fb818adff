/**
 * `sys/capabilities-self`, `sys/capabilities` and `sys/capabilities-accessor`
 * (docs/reference/cloud-auth.md §7.4): what a token may do on each path asked about, by the default
 * policy's rules. `-self` asks for the calling token, which the default policy lets do it; the others
 * name a token (by id or accessor) and need a root token.
 */
import { explainResponse } from '../../../core/explanation.ts'
import { setOwnField } from '../../../core/own-field.ts'
import { MESSAGES } from '../auth-messages.ts'
import { AuthRefusal } from '../auth-refusal.ts'
import { authError, authResponse, multiError } from '../envelope.ts'
import type { FieldSchema } from '../fields/index.ts'
import type { OperationCall, OperationRoute } from '../routing/api-route.ts'
import { unsupportedOperation } from '../routing/http-operation.ts'
import { methodCapability, tokenCapabilities, tokenMay } from './default-policy.ts'
import { callingToken, invalidAccessor, readTokenFields, tokenByAccessor, tokenById, type NamedToken, type TokenFields } from './named-token.ts'
import { TOKEN_MESSAGES } from './token-messages.ts'
import { tokenStore, type IssuedToken } from './token-store.ts'

const PATHS: FieldSchema = { path: 'commaList', paths: 'commaList' }
const SELF_FIELDS: FieldSchema = { token: 'string', ...PATHS, namespace: 'string' }
const TOKEN_FIELDS: FieldSchema = { token: 'string', ...PATHS }
const ACCESSOR_FIELDS: FieldSchema = { accessor: 'string', ...PATHS }

const ANSWERS = {
  '200': 'Each path asked about, and `capabilities` when one was, with the capabilities sorted (`root`, or `deny` where none)',
  '400': '`paths must be supplied`, `missing path`, `invalid token`; `no token found` (the vault profile: 500)',
}

const SELF_PATH = 'sys/capabilities-self'

/** `sys/capabilities-self`: the calling token's capabilities; a token the default policy does not let ask is the ACL's 403. */
const capabilitiesSelfRoute: OperationRoute = {
  path: SELF_PATH,
  reads: 'operation',
  token: 'own',
  describe: { post: { summary: "The calling token's capabilities on paths", body: SELF_FIELDS, answers: ANSWERS } },
  run(call) {
    const { request, context } = call
    const named = callingToken(request, context)
    if (named instanceof Response) return named
    if (!tokenMay(named, SELF_PATH, methodCapability(request.method))) {
      const why = { rule: 'default policy', seen: `${request.method} by a token without the root policy`, expected: 'POST or PUT, if the token has the default policy' }
      return explainResponse(authError(403, multiError(MESSAGES.permissionDenied)), why)
    }
    if (call.operation !== 'update') return unsupportedOperation(false)
    // The request's own use is counted first: a token it used up is then no token to ask about.
    const current = 'token' in named ? usedOnce(call, named.token) : named
    return capabilitiesAnswer(call, current, readTokenFields(SELF_FIELDS, call.data))
  },
}

/** `sys/capabilities`: a token named by `token` (a JSON string; anything else is no token at all). */
const capabilitiesRoute: OperationRoute = {
  path: 'sys/capabilities',
  reads: 'operation',
  token: 'root',
  describe: { post: { summary: "A token's capabilities on paths", body: TOKEN_FIELDS, answers: ANSWERS } },
  run(call) {
    if (call.operation !== 'update') return unsupportedOperation(false)
    const read = readTokenFields(TOKEN_FIELDS, call.data)
    const id = typeof call.data.token === 'string' ? call.data.token : ''
    if (id === '') {
      throw new AuthRefusal(TOKEN_MESSAGES.noTokenFound, { status: 400, realStatus: 500 }).explain({ rule: 'token', seen: 'none', expected: 'the token to ask about, as a string' })
    }
    return capabilitiesAnswer(call, tokenById(call.context, id), read)
  },
}

/** `sys/capabilities-accessor`: a token named by its accessor. */
const capabilitiesAccessorRoute: OperationRoute = {
  path: 'sys/capabilities-accessor',
  reads: 'operation',
  token: 'root',
  describe: { post: { summary: "The capabilities on paths of the token with an accessor", body: ACCESSOR_FIELDS, answers: { ...ANSWERS, '400': `${ANSWERS['400']}, \`missing accessor\`, \`invalid accessor\`` } } },
  run(call) {
    if (call.operation !== 'update') return unsupportedOperation(false)
    const read = readTokenFields(ACCESSOR_FIELDS, call.data)
    const accessor = read.fields.string('accessor') ?? ''
    if (accessor === '') {
      return explainResponse(authError(400, TOKEN_MESSAGES.missingAccessor), { rule: 'accessor', seen: 'none', expected: 'an accessor' })
    }
    const named = tokenByAccessor(call.context, accessor)
    if (!named) return invalidAccessor()
    return capabilitiesAnswer(call, named, read)
  },
}

export const CAPABILITIES_ROUTES: readonly OperationRoute[] = [capabilitiesSelfRoute, capabilitiesRoute, capabilitiesAccessorRoute]

/** The calling token after this request's use of it, or undefined when that use was its last. */
function usedOnce({ context }: OperationCall, used: IssuedToken): NamedToken | undefined {
  const store = tokenStore(context.emulator)
  store.use(used)
  const token = store.lookup(used.id)
  return token && { token }
}

/** The paths asked about, then each path's capabilities, in `data` and at the top level (Vault repeats them there for this path), and `capabilities` for one path. */
function capabilitiesAnswer({ context }: OperationCall, named: NamedToken | undefined, { fields, warnings }: TokenFields): Response {
  // `paths`, else the deprecated `path`; none is the handler's own 400.
  const given = fields.list('paths') ?? []
  const paths = given.length > 0 ? given : (fields.list('path') ?? [])
  if (paths.length === 0) {
    return explainResponse(authError(400, TOKEN_MESSAGES.pathsMissing), { rule: 'paths', seen: 'none', expected: 'paths, a list or a comma-separated text' })
  }
  const data: Record<string, string[]> = {}
  // Vault asks path by path: the first empty path, or the first path asked of no token, ends the answer.
  for (const path of paths) {
    if (path === '') return explainResponse(authError(400, multiError(TOKEN_MESSAGES.missingPath)), { rule: 'paths', seen: 'an empty path among them' })
    if (!named) {
      return explainResponse(authError(400, multiError(TOKEN_MESSAGES.invalidToken)), { rule: 'token', seen: 'a token doppel does not hold (or one this request used up)' })
    }
    setOwnField(data, path, tokenCapabilities(named, path))
  }
  if (paths.length === 1) data.capabilities = data[paths[0]!]!
  return authResponse(context, { data, topLevel: data, warnings, mountType: 'system' })
}
