import { explainResponse } from '../../../core/explanation.ts'
import type { RequestContext } from '../../../core/glossary.ts'
import { authError, noContent } from '../envelope.ts'
import { readRequestData } from '../request-body.ts'
import { requestToken } from '../../../core/request-token.ts'
import { addressIsAllowed } from './bound-cidrs.ts'
import { TOKEN_MESSAGES } from './token-messages.ts'
import { tokenDenied } from './token-refusal.ts'
import { tokenStore } from './token-store.ts'

/**
 * `POST|PUT /v1/auth/token/revoke-self`: the calling token is gone afterwards (204). An unknown, expired
 * or out-of-CIDR token gets 403 `permission denied`; a batch token 400 `batch tokens cannot be revoked`.
 * The emulator's configured root tokens are not stored tokens: revoking one answers 204 and changes nothing.
 */
export async function handleRevokeSelf(request: Request, context: RequestContext): Promise<Response> {
  await readRequestData(request)
  const id = requestToken(request, context.profile)
  const { emulator } = context
  if (!id) return tokenDenied(context, undefined, id)
  if (emulator.isRootToken(id)) return noContent()
  const store = tokenStore(emulator)
  const token = store.lookup(id)
  if (!token) return tokenDenied(context, store, id)
  if (!addressIsAllowed(context.remoteAddress, token.bound_cidrs)) return tokenDenied(context, store, id, token.bound_cidrs)
  if (token.type === 'batch') return explainResponse(authError(400, TOKEN_MESSAGES.batchRevoke), { rule: 'token type', seen: 'batch', expected: 'service' })
  store.remove(token, 'revoked')
  return noContent()
}
