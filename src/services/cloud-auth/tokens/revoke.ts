import { explainResponse } from '../../../core/explanation.ts'
import type { RequestContext } from '../../../core/glossary.ts'
import { authError, authResponse, noContent } from '../envelope.ts'
import { readRequestData } from '../request-body.ts'
import type { OperationCall } from '../routing/api-route.ts'
import { accessorField, callingToken, NOT_HELD, tokenByAccessor, tokenById, tokenIdField, type NamedToken, type TokenFields } from './named-token.ts'
import { TOKEN_MESSAGES } from './token-messages.ts'
import { tokenStore } from './token-store.ts'

/**
 * `POST|PUT /v1/auth/token/revoke-self`: the calling token is gone afterwards (204). An unknown, expired
 * or out-of-CIDR token gets 403 `permission denied`; a batch token 400 `batch tokens cannot be revoked`.
 */
export async function handleRevokeSelf(request: Request, context: RequestContext): Promise<Response> {
  await readRequestData(request)
  const named = callingToken(request, context)
  return named instanceof Response ? named : revoke(context, named)
}

/**
 * `POST /v1/auth/token/revoke` (`token`): the token is gone (204, also for one the store does not hold);
 * none named is 400 `missing token ID`.
 */
export function handleRevoke({ context }: OperationCall, { fields }: TokenFields): Response {
  const id = tokenIdField(fields, 'revoke')
  if (id instanceof Response) return id
  const named = tokenById(context, id)
  return named ? revoke(context, named) : noContent()
}

/**
 * `POST /v1/auth/token/revoke-orphan` (`token`): the token alone is gone, the tokens it created stay as
 * orphans; one the store does not hold is 400 `token to revoke not found`.
 */
export function handleRevokeOrphan({ context }: OperationCall, { fields }: TokenFields): Response {
  const id = tokenIdField(fields, 'revoke')
  if (id instanceof Response) return id
  const named = tokenById(context, id)
  return named ? revoke(context, named, { leaveOrphans: true }) : explainResponse(authError(400, TOKEN_MESSAGES.orphanNotFound), NOT_HELD)
}

/**
 * `POST /v1/auth/token/revoke-accessor` (`accessor`): the token is gone (204); an accessor of no token is
 * 200 with the warning `No token found with this accessor`.
 */
export function handleRevokeAccessor({ context }: OperationCall, { fields, warnings }: TokenFields): Response {
  const accessor = accessorField(fields)
  if (accessor instanceof Response) return accessor
  const named = tokenByAccessor(context, accessor)
  if (named) return revoke(context, named)
  const why = { rule: 'accessor', seen: 'an accessor of no live token', hint: 'it may have expired or been revoked already' }
  return explainResponse(authResponse(context, { warnings: [TOKEN_MESSAGES.noTokenForAccessor, ...warnings], mountType: 'token' }), why)
}

/**
 * Revokes a token and the tokens it created, theirs too (or, `leaveOrphans`, the token alone): a batch
 * token cannot be (400). The emulator's configured root tokens are not stored tokens: revoking one
 * answers 204 and changes nothing, the tokens they created included.
 */
function revoke(context: RequestContext, named: NamedToken, options: { leaveOrphans?: boolean } = {}): Response {
  if ('root' in named) return noContent()
  if (named.token.type === 'batch') return explainResponse(authError(400, TOKEN_MESSAGES.batchRevoke), { rule: 'token type', seen: 'batch', expected: 'service' })
  const store = tokenStore(context.emulator)
  if (options.leaveOrphans) store.removeLeavingOrphans(named.token)
  else store.remove(named.token, 'revoked')
  return noContent()
}
