import type { RequestContext } from '../../../core/glossary.ts'
import { authError, authResponse } from '../envelope.ts'
import { readRequestData } from '../request-body.ts'
import { explainResponse } from '../../../core/explanation.ts'
import { AuthRefusal, BAD_INPUT_500 } from '../auth-refusal.ts'
import type { FieldSchema } from '../fields/index.ts'
import type { OperationCall } from '../routing/api-route.ts'
import { accessorField, callingToken, invalidAccessor, NOT_HELD, readTokenFields, tokenByAccessor, tokenById, tokenIdField, type NamedToken, type TokenFields } from './named-token.ts'
import { RenewError } from './renew-error.ts'
import { renewalCheck, type RenewalCheck } from './renewal-check.ts'
import { mountTable, TOKEN_MOUNT } from '../mounts/mount-table.ts'
import { renewalTtl } from './renewal-ttl.ts'
import { TOKEN_MESSAGES } from './token-messages.ts'
import { tokenStore, type IssuedToken } from './token-store.ts'

/** The fields `renew` takes, and `renew-self` (which ignores `token`). */
export const RENEW_FIELDS: FieldSchema = { token: 'string', increment: 'duration' }

/**
 * `POST|PUT /v1/auth/token/renew-self` (body: optional `increment`; `token`, the real service's deprecated
 * field, is taken and ignored): the calling token renewed, its use counted. Refusals: 403 `permission
 * denied` (unknown, expired, out-of-CIDR), and `renew`'s.
 */
export async function handleRenewSelf(request: Request, context: RequestContext): Promise<Response> {
  const data = await readRequestData(request)
  const named = callingToken(request, context)
  if (named instanceof Response) return named
  return renew(context, named, readTokenFields(RENEW_FIELDS, data), { countUse: true })
}

/**
 * `POST /v1/auth/token/renew` (`token`, optional `increment`): none named is 400 `missing token ID`, one
 * the store does not hold 400 `token not found`.
 */
export function handleRenew({ context }: OperationCall, read: TokenFields): Promise<Response> | Response {
  const id = tokenIdField(read.fields, 'renew')
  if (id instanceof Response) return id
  const named = tokenById(context, id)
  if (!named) return explainResponse(authError(400, TOKEN_MESSAGES.tokenNotFound), NOT_HELD)
  return renew(context, named, read, { countUse: false })
}

/** `POST /v1/auth/token/renew-accessor` (`accessor`, optional `increment`): as `renew`, the answer's `client_token` left empty. */
export async function handleRenewAccessor({ context }: OperationCall, read: TokenFields): Promise<Response> {
  const accessor = accessorField(read.fields)
  if (accessor instanceof Response) return accessor
  const named = tokenByAccessor(context, accessor)
  if (!named) return invalidAccessor()
  return renew(context, named, read, { countUse: false, clientToken: '' })
}

/**
 * Renews a token: the login method re-checks its identity (docs/reference/cloud-auth.md §7), then it lives
 * on for the role's current TTL (or the increment), capped by its max, counted on the emulator clock; a
 * token the token store created renews by its own settings. Answers the `auth` object; refusals: 400
 * `lease is not renewable` (a configured root token, one created not renewable), `batch tokens cannot be
 * renewed`, `failed to renew entry: …`. Nothing is stored unless every check passed.
 * `countUse`: the token is the caller's own, and this is one of its uses.
 */
async function renew(
  context: RequestContext,
  named: NamedToken,
  { fields, warnings: ignored }: TokenFields,
  options: { countUse: boolean; clientToken?: string },
): Promise<Response> {
  if ('root' in named) return explainResponse(authError(400, TOKEN_MESSAGES.notRenewable), { rule: 'renewable', seen: 'a root token', hint: 'renew a token a login issued' })
  const { token } = named
  const increment = fields.duration('increment') ?? 0
  if (token.type === 'batch') return explainResponse(authError(400, TOKEN_MESSAGES.batchRenew), { rule: 'token type', seen: 'batch', expected: 'service' })
  const store = tokenStore(context.emulator)
  const usesLeft = options.countUse ? store.use(token) : token.num_uses
  const stillLive = token.num_uses === 0 || usesLeft > 0
  if (!token.renewable) return explainResponse(authError(400, TOKEN_MESSAGES.notRenewable), { rule: 'renewable', seen: 'a token created with renewable false, or without a TTL' })

  const check = await renewalOf(context, token)
  const nowMs = context.emulator.clock.nowMs()
  const { ttl, warnings } = renewalTtl(check.bounds, increment, check.explicitMaxTtl ?? token.explicit_max_ttl, token.creation_time, nowMs)
  check.commit()
  if (stillLive) {
    const renewed = { ...token, num_uses: usesLeft, expire_time: nowMs + ttl * 1000, last_renewal_time: nowMs }
    store.save(token.mount === TOKEN_MOUNT ? { ...renewed, granted_ttl: ttl } : renewed)
  }
  return authResponse(context, { auth: renewedAuth(token, ttl, usesLeft, options.clientToken ?? token.id), warnings: [...ignored, ...warnings], mountType: 'token' })
}

/**
 * The login method's re-check (docs/reference/cloud-auth.md §7), or the token store's own for a token it
 * created; a refusal is the core's `failed to renew entry`.
 */
async function renewalOf(context: RequestContext, token: IssuedToken): Promise<RenewalCheck> {
  try {
    return token.mount === TOKEN_MOUNT ? tokenStoreRenewal(context, token) : await renewalCheck(context, token)
  } catch (error) {
    if (error instanceof RenewError) {
      throw new AuthRefusal(TOKEN_MESSAGES.renewFailed(error.message), BAD_INPUT_500).explain(error.explanation ?? { rule: 'renewal re-check', seen: error.message })
    }
    throw error
  }
}

/**
 * A token the token store created renews by its own settings (Vault's token store `authRenew`): its last
 * granted TTL and the token mount's lease TTLs, with its period and explicit max, or its role's as the role
 * stands now (a role deleted since: no renewal).
 */
function tokenStoreRenewal(context: RequestContext, token: IssuedToken): RenewalCheck {
  const leases = mountTable(context.emulator).leaseTtls(TOKEN_MOUNT)
  const ttl = token.granted_ttl ?? token.creation_ttl
  if (token.role === undefined) return { bounds: { ttl, maxTtl: 0, period: token.period, leases }, commit() {} }
  const role = tokenStore(context.emulator).roles.get(token.role)
  if (!role) throw new RenewError(TOKEN_MESSAGES.roleGone(token.role)).explain({ rule: 'token role', seen: `${token.role}, deleted since the token was created`, hint: 'create the role again to renew its tokens' })
  return { bounds: { ttl, maxTtl: 0, period: role.token_period, leases }, explicitMaxTtl: role.token_explicit_max_ttl, commit() {} }
}

/** The `auth` object of a renewal: the token as issued, with its new lease. */
function renewedAuth(token: IssuedToken, ttl: number, usesLeft: number, clientToken: string): Record<string, unknown> {
  return {
    client_token: clientToken,
    accessor: token.accessor,
    policies: token.policies,
    token_policies: token.policies,
    metadata: token.metadata,
    lease_duration: ttl,
    renewable: true,
    entity_id: token.entity_id,
    token_type: token.type,
    orphan: token.parent === undefined,
    mfa_requirement: null,
    num_uses: usesLeft,
  }
}
