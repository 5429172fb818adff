import type { Service } from '../../../core/glossary.ts'
import { MESSAGES } from '../auth-messages.ts'
import { authError, authResponse, multiError } from '../envelope.ts'
import { explainResponse } from '../../../core/explanation.ts'
import type { FieldSchema } from '../fields/index.ts'
import type { OperationCall, OperationRoute, RequestRoute } from '../routing/api-route.ts'
import { httpOperation, unsupportedOperation } from '../routing/http-operation.ts'
import { CREATE_FIELDS, handleCreate, handleCreateAgainstRole, handleCreateOrphan } from './create.ts'
import { handleListAccessors, handleLookup, handleLookupAccessor, handleLookupSelf } from './lookup.ts'
import { callerToken, invalidTokenField, readTokenFields, tokenById, type TokenFields } from './named-token.ts'
import { tokenRoleRoute, tokenRolesListRoute } from './token-roles.ts'
import { methodCapability, tokenCapabilities, tokenMay } from './default-policy.ts'
import { TOKEN_MOUNT } from '../mounts/mount-table.ts'
import { handleRenew, handleRenewAccessor, handleRenewSelf, RENEW_FIELDS } from './renew.ts'
import { handleRevoke, handleRevokeAccessor, handleRevokeOrphan, handleRevokeSelf } from './revoke.ts'

/** A token endpoint about the calling token: the HTTP methods it answers (PUT is POST to the real service). */
interface SelfRoute extends RequestRoute {
  readonly methods: readonly string[]
}

/**
 * A self route, relative to the token mount: it reads the token it is about, so nothing is read before
 * it runs. A live token without the `root` policy may do only what the default policy grants it (read
 * `lookup-self`, update the others; nothing without that policy), and any other operation is the ACL's
 * 403, before the path's own answer; for a root token, other methods get the token store's own 405s and a
 * LIST its 404.
 */
function selfRoute(path: string, methods: readonly string[], handle: Service): SelfRoute {
  const answer = { summary: `${path} of the calling token`, answers: { '200': 'The token', '204': 'Done' } }
  return {
    path,
    methods,
    reads: 'request',
    token: 'own',
    describe: Object.fromEntries(methods.filter((method) => method !== 'PUT').map((method) => [method.toLowerCase(), answer])),
    async run({ request, context, url }) {
      if (!methods.includes(request.method)) {
        // The HTTP layer's refusals (a PATCH's content type) come before the token's.
        const parsed = await httpOperation(request, url)
        if (parsed instanceof Response) return parsed
      }
      const named = tokenById(context, callerToken(request, context))
      const capability = methodCapability(request.method)
      if (named !== undefined && !tokenMay(named, `auth/${TOKEN_MOUNT}/${path}`, capability)) {
        const why = { rule: 'default policy', seen: `${request.method} (${capability}) by a token without the root policy`, expected: `${tokenCapabilities(named, `auth/${TOKEN_MOUNT}/${path}`).join(', ')} (what its policies grant on ${path})` }
        return explainResponse(authError(403, multiError(MESSAGES.permissionDenied)), why)
      }
      if (methods.includes(request.method)) return handle(request, context)
      if (request.method === 'LIST') return explainResponse(authError(404, multiError(MESSAGES.unsupportedPath)), { rule: 'route', seen: `LIST ${path}`, expected: methods.join(', ') })
      return ['GET', 'DELETE'].includes(request.method) ? unsupportedOperation(false) : authError(405)
    },
  }
}

/** A named route's handler, given the request's fields as its schema reads them. */
type NamedHandler = (call: OperationCall, read: TokenFields) => Response | Promise<Response>

/** The operations a named route runs; any other is the token store's 405. */
type NamedHandlers = Partial<Record<'read' | 'update', NamedHandler>>

/**
 * A route about a token named in the request (by `token` or `accessor`): root tokens only, as the default
 * policy a login's token carries grants none of them. Vault's core reads a `token` field before the token
 * check (`invalidTokenField`).
 */
function namedRoute(path: string, body: FieldSchema, handlers: NamedHandlers, answers: Record<string, string>): OperationRoute {
  const describe = { summary: `${path}: a token named in the request`, body, answers }
  return {
    path,
    reads: 'operation',
    token: 'root',
    ...('token' in body && { beforeToken: ({ data }: OperationCall) => invalidTokenField(data) }),
    describe: {
      ...(handlers.read && { get: { ...describe, body: undefined } }),
      post: describe,
    },
    run(call) {
      const handle = call.operation === 'read' || call.operation === 'update' ? handlers[call.operation] : undefined
      return handle ? handle(call, readTokenFields(body, call.data)) : unsupportedOperation(false)
    },
  }
}

const CREATED = { '200': 'The new token in `auth`' }
const LOOKED_UP = { '200': 'The token' }
const REVOKED = { '204': 'Revoked (also a token no longer held)' }
const RENEWED = { '200': 'The renewed token in `auth`' }

/**
 * `create/<role>` (Vault's `create/` + `GenericNameRegex`): a token against a token role, after the fields
 * are read; a name no role can have is no path of the store.
 */
const createAgainstRoleRoute: OperationRoute = {
  path: 'create/:role',
  reads: 'operation',
  token: 'root',
  describe: { post: { summary: 'Create a token against a token role', body: CREATE_FIELDS, answers: { ...CREATED, '400': 'Refused, or `unknown role <name>`', '404': 'A name no role can have: `unsupported path`' } } },
  run(call) {
    if (call.operation !== 'update') return unsupportedOperation(false)
    const read = readTokenFields(CREATE_FIELDS, call.data)
    const why = { rule: 'route', seen: call.path, expected: 'create/<role>, the role named by letters, digits, _, - and . (neither of the last two first or last)' }
    return handleCreateAgainstRole(call, read) ?? explainResponse(authError(404, multiError(MESSAGES.unsupportedPath)), why)
  },
}

/** `accessors` (Vault's `accessors/?$`): a LIST of every token's accessor; a read is 405. */
const accessorsRoute = (path: string): OperationRoute => ({
  path,
  reads: 'operation',
  token: 'root',
  ...(path.endsWith('/') && { describe: { get: { summary: 'List the accessors of every live token (LIST, or GET with list=true)', answers: { '200': '`keys`: the accessors' } } } }),
  run: (call) => (call.operation === 'list' ? handleListAccessors(call) : unsupportedOperation(false)),
})

/**
 * `tidy` (Vault's `handleTidy`: `tidy$`, updates only): the real token store cleans up in the background
 * and answers 202 at once. doppel's store leaves nothing to tidy: expired tokens go as the clock moves and
 * before each request.
 */
const tidyRoute: OperationRoute = {
  path: 'tidy',
  reads: 'operation',
  token: 'root',
  describe: { post: { summary: 'Tidy the token store: expired tokens go', answers: { '202': 'Started: a warning says so' } } },
  run({ context, operation }) {
    if (operation !== 'update') return unsupportedOperation(false)
    return authResponse(context, { status: 202, warnings: [MESSAGES.tidyStarted], mountType: 'token' })
  },
}

/** The token store's routes, by path under `auth/<token mount>/`: the creates, the `*-self` ones, those naming a token, the accessors' list, the roles, the tidy. */
export const TOKEN_ROUTES: readonly (SelfRoute | OperationRoute)[] = [
  namedRoute('create', CREATE_FIELDS, { update: handleCreate }, CREATED),
  namedRoute('create-orphan', CREATE_FIELDS, { update: handleCreateOrphan }, CREATED),
  createAgainstRoleRoute,
  selfRoute('lookup-self', ['GET', 'POST', 'PUT'], handleLookupSelf),
  selfRoute('renew-self', ['POST', 'PUT'], handleRenewSelf),
  selfRoute('revoke-self', ['POST', 'PUT'], handleRevokeSelf),
  namedRoute('lookup', { token: 'string' }, { read: handleLookup, update: handleLookup }, LOOKED_UP),
  namedRoute('lookup-accessor', { accessor: 'string' }, { update: handleLookupAccessor }, LOOKED_UP),
  namedRoute('renew', RENEW_FIELDS, { update: handleRenew }, RENEWED),
  namedRoute('renew-accessor', { accessor: 'string', increment: 'duration' }, { update: handleRenewAccessor }, RENEWED),
  namedRoute('revoke', { token: 'string' }, { update: handleRevoke }, REVOKED),
  namedRoute('revoke-orphan', { token: 'string' }, { update: handleRevokeOrphan }, { '204': 'Revoked' }),
  namedRoute('revoke-accessor', { accessor: 'string' }, { update: handleRevokeAccessor }, { ...REVOKED, '200': 'No token with that accessor: a warning' }),
  accessorsRoute('accessors'),
  accessorsRoute('accessors/'),
  tokenRolesListRoute('roles'),
  tokenRolesListRoute('roles/'),
  tokenRoleRoute,
  tidyRoute,
]
