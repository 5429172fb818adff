import type { RequestContext } from '../../../core/glossary.ts'
import { explainResponse } from '../../../core/explanation.ts'
import { authError, authResponse } from '../envelope.ts'
import type { OperationCall } from '../routing/api-route.ts'
import { accessorField, callerToken, callingToken, invalidAccessor, NOT_HELD, tokenByAccessor, tokenById, type NamedToken, type TokenFields } from './named-token.ts'
import { rootTokenAccessor, rootTokenData, tokenData } from './token-data.ts'
import { TOKEN_MESSAGES } from './token-messages.ts'
import { tokenStore } from './token-store.ts'

/**
 * `GET|POST /v1/auth/token/lookup-self`: the calling token's data in the real service's shape, with the
 * remaining `ttl` counted down on the emulator clock. An unknown, expired or out-of-CIDR token gets 403
 * `permission denied`. A use of a limited-use token is counted.
 */
export async function handleLookupSelf(request: Request, context: RequestContext): Promise<Response> {
  const named = callingToken(request, context)
  if (named instanceof Response) return named
  if ('root' in named) return lookupAnswer(context, named, [])
  const usesLeft = tokenStore(context.emulator).use(named.token)
  return lookupAnswer(context, { token: { ...named.token, num_uses: usesLeft } }, [])
}

/**
 * `GET|POST /v1/auth/token/lookup` (`token` in the body, or the query of a GET; none: the caller's own):
 * the token's data as `lookup-self` gives it. A token the store does not hold is 403 `bad token`.
 */
export function handleLookup({ request, context }: OperationCall, { fields, warnings }: TokenFields): Response {
  const id = fields.string('token') || callerToken(request, context)
  const named = tokenById(context, id)
  return named ? lookupAnswer(context, named, warnings) : explainResponse(authError(403, TOKEN_MESSAGES.badToken), NOT_HELD)
}

/** `POST /v1/auth/token/lookup-accessor` (`accessor`): the token's data, its id left empty. */
export function handleLookupAccessor({ context }: OperationCall, { fields, warnings }: TokenFields): Response {
  const accessor = accessorField(fields)
  if (accessor instanceof Response) return accessor
  const named = tokenByAccessor(context, accessor)
  return named ? lookupAnswer(context, named, warnings, { id: '' }) : invalidAccessor()
}

function lookupAnswer(context: RequestContext, named: NamedToken, warnings: string[], override?: { id: string }): Response {
  const { emulator } = context
  const data = 'root' in named ? rootTokenData(named.root, emulator) : tokenData(named.token, emulator.clock.nowMs())
  return authResponse(context, { data: { ...data, ...override }, warnings, mountType: 'token' })
}

/**
 * `LIST /v1/auth/token/accessors`: the accessors of every live token, the configured root tokens' among
 * them (batch tokens have none), sorted (Vault lists them in the order of its salted storage keys).
 */
export function handleListAccessors({ context }: OperationCall): Response {
  const store = tokenStore(context.emulator)
  store.sweepExpired(context.emulator.clock.nowMs())
  const keys = [...context.emulator.rootTokens].map((id) => rootTokenAccessor(id, context.emulator))
  for (const token of store.tokens.values()) if (token.accessor !== '') keys.push(token.accessor)
  return authResponse(context, { data: { keys: keys.sort() }, mountType: 'token' })
}
