import { explanationOf } from '../../../core/explanation.ts'
import type { RequestContext } from '../../../core/glossary.ts'
import { GoDurationError, parseGoDurationNs } from '../../../core/go/go-duration.ts'
import type { RoleEntry } from '../glossary.ts'
import { IamArnError, parseIamArn } from '../iam-arn.ts'
import { mountTable, type LeaseTtls } from '../mounts/mount-table.ts'
import { describeRunningInstance, instanceBoundFailure, InstanceCheckError } from '../login/ec2/instance-checks.ts'
import { cachedFullArn, globMatches } from '../login/iam/principal-binding.ts'
import { AuthRefusal } from '../auth-refusal.ts'
import { authState, type AuthState } from '../state.ts'
import { RenewError } from './renew-error.ts'
import type { RenewalBounds } from './renewal-ttl.ts'
import { TOKEN_MESSAGES } from './token-messages.ts'
import type { IssuedToken } from './token-store.ts'
import { MESSAGES } from '../auth-messages.ts'

/** The backend's verdict on a renewal: the role's current bounds, and the state to write if it goes ahead. */
export interface RenewalCheck {
  bounds: RenewalBounds
  /** The explicit max TTL to hold the renewal to, where it is not the token's own (a token role's). */
  explicitMaxTtl?: number
  commit(): void
}

/**
 * The login method's re-check of a token at renewal (docs/reference/cloud-auth.md §7), by the token's auth type (`ec2` when
 * unrecorded, as for old tokens): the identity behind the token must still satisfy its role.
 */
export async function renewalCheck(context: RequestContext, token: IssuedToken): Promise<RenewalCheck> {
  const state = authState(context.emulator, token.mount)
  const leases = mountTable(context.emulator).leaseTtls(token.mount)
  const authType = token.internal_data.auth_type ?? token.metadata?.auth_type ?? 'ec2'
  return authType === 'iam' ? iamRenewal(context, state, token, leases) : ec2Renewal(context, state, token, leases)
}

/** ec2: instance still running, access-list entry present, its role present; the entry is refreshed. */
async function ec2Renewal(context: RequestContext, state: AuthState, token: IssuedToken, leases: LeaseTtls): Promise<RenewalCheck> {
  const { instance_id: instanceId, region, account_id: accountId = '' } = token.internal_data
  if (!instanceId) throw new RenewError(TOKEN_MESSAGES.missingInstanceId)
  if (region === undefined) throw new RenewError(TOKEN_MESSAGES.missingRegion)
  try {
    await describeRunningInstance(context, state, instanceId, region, accountId)
  } catch (error) {
    throw new RenewError(TOKEN_MESSAGES.verifyInstance(instanceId, renewReason(error))).explain(explanationOf(error, 'instance check'))
  }
  const entry = state.accessList.get(instanceId)
  if (!entry) throw new RenewError(TOKEN_MESSAGES.accessListMissing(instanceId))
  const role = state.roles.get(entry.role.toLowerCase())
  if (!role) throw new RenewError(MESSAGES.roleEntryNotFound)

  const tagMaxTtl = roleTagMaxTtl(token.metadata?.role_tag_max_ttl ?? '')
  let shortestMaxTtl = leases.maxTtl
  let longestMaxTtl = leases.maxTtl
  for (const max of [role.token_max_ttl, tagMaxTtl]) {
    if (max > 0 && max < shortestMaxTtl) shortestMaxTtl = max
    if (max > longestMaxTtl) longestMaxTtl = max
  }
  const nowMs = context.emulator.clock.nowMs()
  return {
    bounds: { ttl: role.token_ttl, maxTtl: shortestMaxTtl, period: role.token_period, leases },
    commit() {
      state.accessList.set({ ...entry, last_updated_time: nowMs, expiration_time: nowMs + longestMaxTtl * 1000 })
    },
  }
}

/** The login's `role_tag_max_ttl` metadata (Go duration text, `0s` without a tag) in seconds. */
function roleTagMaxTtl(text: string): number {
  try {
    return Number(parseGoDurationNs(text) / 1_000_000_000n)
  } catch (error) {
    if (error instanceof GoDurationError) throw new RenewError(error.message)
    throw error
  }
}

/** iam: role present, the inferred instance still valid if the role infers, the principal still bound. */
async function iamRenewal(context: RequestContext, state: AuthState, token: IssuedToken, leases: LeaseTtls): Promise<RenewalCheck> {
  const data = token.internal_data
  const canonicalArn = data.canonical_arn ?? token.metadata?.canonical_arn ?? ''
  if (canonicalArn === '') throw new RenewError(TOKEN_MESSAGES.missingCanonicalArn)
  const roleName = data.role_name
  if (!roleName) throw new RenewError(TOKEN_MESSAGES.missingRoleName)
  const role = state.roles.get(roleName.toLowerCase())
  if (!role) throw new RenewError(MESSAGES.roleEntryNotFound)
  if (role.inferred_entity_type === 'ec2_instance') await checkInferredInstance(context, state, token, role, roleName)
  if (!(await principalStillBound(context, state, role, roleName, canonicalArn, data.client_user_id ?? ''))) {
    throw new RenewError(TOKEN_MESSAGES.noLongerBound(roleName, canonicalArn))
  }
  return { bounds: { ttl: role.token_ttl, maxTtl: role.token_max_ttl, period: role.token_period, leases }, commit() {} }
}

/**
 * A role that infers now re-validates the instance recorded at login; a token from before inferencing
 * was turned on has none recorded, so it can no longer renew.
 */
async function checkInferredInstance(context: RequestContext, state: AuthState, token: IssuedToken, role: RoleEntry, roleName: string): Promise<void> {
  const instanceId = token.internal_data.inferred_entity_id ?? ''
  if (instanceId === '') throw new RenewError(TOKEN_MESSAGES.missingInferredId)
  const region = token.internal_data.inferred_aws_region ?? ''
  if (region === '') throw new RenewError(TOKEN_MESSAGES.missingInferredRegion)
  const accountId = token.internal_data.account_id ?? ''
  try {
    const instance = await describeRunningInstance(context, state, instanceId, region, accountId)
    const failure = await instanceBoundFailure(context, state, instance, role, roleName, { accountId, region })
    if (failure !== undefined) throw new RenewError(failure.reason).explain(failure.explanation)
  } catch (error) {
    throw new RenewError(TOKEN_MESSAGES.verifyInstance(instanceId, renewReason(error))).explain(explanationOf(error, 'instance check'))
  }
}

/**
 * The principal binding with what the login recorded: the unique id among the resolved ids; or, without
 * resolution, the canonical ARN bound exactly; or a wildcard bind matching the full ARN.
 */
async function principalStillBound(context: RequestContext, state: AuthState, role: RoleEntry, roleName: string, canonicalArn: string, uniqueId: string): Promise<boolean> {
  const bound = role.bound_iam_principal_arn
  if (bound.length === 0) return true
  if (uniqueId !== '' && role.bound_iam_principal_id.includes(uniqueId)) return true
  if (!role.resolve_aws_unique_ids && bound.includes(canonicalArn)) return true
  if (!bound.some((arn) => arn.endsWith('*'))) return false
  let entity
  try {
    entity = parseIamArn(canonicalArn)
  } catch (error) {
    if (error instanceof IamArnError) throw new RenewError(error.message)
    throw error
  }
  let fullArn: string
  try {
    fullArn = await cachedFullArn(context, state, entity, roleName, uniqueId)
  } catch (error) {
    throw new RenewError(renewReason(error))
  }
  return bound.some((arn) => arn.endsWith('*') && globMatches(arn, fullArn))
}

/** The text of a check's failure; anything other than the checks' own errors is a real fault. */
function renewReason(error: unknown): string {
  if (error instanceof InstanceCheckError || error instanceof AuthRefusal) return error.message
  throw error
}
