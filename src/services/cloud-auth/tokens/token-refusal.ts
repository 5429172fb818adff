import { explainResponse, listText, type Explanation } from '../../../core/explanation.ts'
import type { RequestContext } from '../../../core/glossary.ts'
import { formatRfc3339Nano } from '../time-format.ts'
import { authError } from '../envelope.ts'
import { MESSAGES } from '../auth-messages.ts'
import { tokenPlaces } from '../../../core/request-token.ts'
import type { TokenStore } from './token-store.ts'

/**
 * The 403 `permission denied` of a token endpoint, with why the token does not serve: none sent, gone
 * (expired, revoked, used up), never issued, or outside its `token_bound_cidrs`. The token itself is never
 * named: it is a secret.
 */
export function tokenDenied(context: RequestContext, store: TokenStore | undefined, id: string | undefined, boundCidrs?: readonly string[]): Response {
  return explainResponse(authError(403, MESSAGES.permissionDenied), tokenExplanation(context, store, id, boundCidrs))
}

/** Why a token a request carries does not serve it (see `tokenDenied`). */
export function tokenExplanation(context: RequestContext, store: TokenStore | undefined, id: string | undefined, boundCidrs?: readonly string[]): Explanation {
  if (!id) return { rule: 'token', seen: 'no token', hint: `send one in ${tokenPlaces(context.profile)}` }
  if (boundCidrs) {
    return { rule: 'token_bound_cidrs', seen: context.remoteAddress, expected: listText(boundCidrs), hint: 'call from an address the role binds the token to' }
  }
  const gone = store?.gone(id)
  if (gone?.reason === 'expired') return { rule: 'token ttl', seen: `the token expired at ${formatRfc3339Nano(gone.atMs)}`, hint: 'renew it before it expires, or log in again' }
  if (gone) return { rule: 'token', seen: `the token was ${gone.reason} at ${formatRfc3339Nano(gone.atMs)}`, hint: 'log in again' }
  return { rule: 'token', seen: 'a token doppel never issued (or one a reset or restore dropped)', hint: 'use a client_token from a login, or a root token' }
}
