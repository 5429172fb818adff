import type { RequestContext } from '../../../core/glossary.ts'
import { authError, authResponse } from '../envelope.ts'
import { toDurationField } from '../fields/index.ts'
import { readRequestData } from '../request-body.ts'
import { MESSAGES } from '../auth-messages.ts'
import { explainResponse } from '../../../core/explanation.ts'
import { AuthRefusal, BAD_INPUT_500 } from '../auth-refusal.ts'
import { requestToken } from '../../../core/request-token.ts'
import { addressIsAllowed } from './bound-cidrs.ts'
import { RenewError } from './renew-error.ts'
import { renewalCheck } from './renewal-check.ts'
import { renewalTtl } from './renewal-ttl.ts'
import { TOKEN_MESSAGES } from './token-messages.ts'
import { tokenDenied } from './token-refusal.ts'
import { tokenStore, type IssuedToken } from './token-store.ts'

/** The fields `renew-self` takes; `token` is the real service's deprecated, ignored one. */
const RENEW_FIELDS = new Set(['increment', 'token'])

/**
 * `POST|PUT /v1/auth/token/renew-self` (body: optional `increment`): the login method re-checks the token's
 * identity (docs/reference/cloud-auth.md §7), then the token lives on for the role's current TTL (or the increment), capped
 * by its max, counted on the emulator clock. Answers the `auth` object; refusals: 403 `permission denied`
 * (unknown, expired, out-of-CIDR), 400 `batch tokens cannot be renewed`, 400 `failed to renew entry: …`.
 * Nothing is stored unless every check passed.
 */
export async function handleRenewSelf(request: Request, context: RequestContext): Promise<Response> {
  const data = await readRequestData(request)
  const id = requestToken(request, context.profile)
  const { emulator } = context
  if (!id) return tokenDenied(context, undefined, id)
  if (emulator.isRootToken(id)) return explainResponse(authError(400, TOKEN_MESSAGES.notRenewable), { rule: 'renewable', seen: 'a root token', hint: 'renew a token a login issued' })
  const store = tokenStore(emulator)
  const token = store.lookup(id)
  if (!token) return tokenDenied(context, store, id)
  if (!addressIsAllowed(context.remoteAddress, token.bound_cidrs)) return tokenDenied(context, store, id, token.bound_cidrs)
  const increment = toDurationField(data.increment, 'increment')
  if (token.type === 'batch') return explainResponse(authError(400, TOKEN_MESSAGES.batchRenew), { rule: 'token type', seen: 'batch', expected: 'service' })
  const usesLeft = store.use(token)
  const stillLive = token.num_uses === 0 || usesLeft > 0

  let check
  try {
    check = await renewalCheck(context, token)
  } catch (error) {
    if (error instanceof RenewError) {
      throw new AuthRefusal(TOKEN_MESSAGES.renewFailed(error.message), BAD_INPUT_500).explain(error.explanation ?? { rule: 'renewal re-check', seen: error.message })
    }
    throw error
  }
  const nowMs = emulator.clock.nowMs()
  const { ttl, warnings } = renewalTtl(check.bounds, increment, token.explicit_max_ttl, token.creation_time, nowMs)
  check.commit()
  if (stillLive) store.save({ ...token, num_uses: usesLeft, expire_time: nowMs + ttl * 1000, last_renewal_time: nowMs })

  const ignored = Object.keys(data).filter((name) => !RENEW_FIELDS.has(name)).sort()
  if (ignored.length > 0) warnings.unshift(MESSAGES.ignoredParameters(ignored))
  return authResponse(context, { auth: renewedAuth(token, ttl, usesLeft), warnings, mountType: 'token' })
}

/** The `auth` object of a renewal: the token as issued, with its new lease. */
function renewedAuth(token: IssuedToken, ttl: number, usesLeft: number): Record<string, unknown> {
  return {
    client_token: token.id,
    accessor: token.accessor,
    policies: token.policies,
    token_policies: token.policies,
    metadata: token.metadata,
    lease_duration: ttl,
    renewable: true,
    entity_id: token.entity_id,
    token_type: token.type,
    orphan: true,
    mfa_requirement: null,
    num_uses: usesLeft,
  }
}
