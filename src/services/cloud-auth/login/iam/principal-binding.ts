import { listText } from '../../../../core/explanation.ts'
import type { RequestContext } from '../../../../core/glossary.ts'
import { providerCalls } from '../../provider/index.ts'
import type { RoleEntry } from '../../glossary.ts'
import { cloudErrorText, credentialsForAccount } from '../../provider/provider-client.ts'
import type { AuthState } from '../../state.ts'
import { LoginError } from '../login-error.ts'
import { LOGIN_MESSAGES } from '../login-messages.ts'
import { partitionRegion, type ParsedArn } from '../../iam-arn.ts'
import { canonicalArn, formatEntity } from './arn.ts'
import type { CallerIdentityResult } from './sts-response.ts'

/** How long a unique id → full ARN lookup is remembered: 7 days on the emulator clock. */
const FULL_ARN_CACHE_MS = 7 * 24 * 3_600_000

/**
 * `bound_iam_principal_arn` (docs/reference/cloud-auth.md §5 G). Passes when the caller's unique id is among the resolved
 * ids; or, with `resolve_aws_unique_ids` off, when its canonical ARN is bound exactly; or when a
 * wildcard bind matches its full ARN (with path), looked up through IAM and cached per unique id.
 * A principal recreated under the same name has a new unique id, so it fails while resolution is on.
 */
export async function checkPrincipalBinding(
  context: RequestContext,
  state: AuthState,
  role: RoleEntry,
  roleName: string,
  entity: ParsedArn,
  caller: CallerIdentityResult,
  callerUniqueId: string,
): Promise<void> {
  const bound = role.bound_iam_principal_arn
  if (bound.length === 0) return
  if (role.bound_iam_principal_id.includes(callerUniqueId)) return
  if (!role.resolve_aws_unique_ids && bound.includes(canonicalArn(entity))) return
  const refusal = (seen: string) =>
    new LoginError(LOGIN_MESSAGES.principalNotBound(caller.arn, roleName)).explain({
      rule: `role ${roleName}: bound_iam_principal_arn`,
      seen,
      expected: listText(bound),
      details: { unique_id: callerUniqueId, resolved_ids: listText(role.bound_iam_principal_id), resolve_aws_unique_ids: String(role.resolve_aws_unique_ids) },
      ...(role.resolve_aws_unique_ids && bound.includes(canonicalArn(entity)) && { hint: 'the ARN is bound, but the principal was recreated since the role was written: write the role again' }),
    })
  if (!bound.some((arn) => arn.endsWith('*'))) throw refusal(canonicalArn(entity))
  const fullArn = await cachedFullArn(context, state, entity, roleName, callerUniqueId)
  if (!bound.some((arn) => arn.endsWith('*') && globMatches(arn, fullArn))) throw refusal(fullArn)
}

/** The real service's glob: `*x*` contains, `*x` suffix, `x*` prefix, else equality. */
export function globMatches(pattern: string, value: string): boolean {
  if (pattern.length < 2) return value === pattern
  const prefix = pattern.startsWith('*')
  const suffix = pattern.endsWith('*')
  if (prefix && suffix) return value.includes(pattern.slice(1, -1))
  if (prefix) return value.endsWith(pattern.slice(1))
  if (suffix) return value.startsWith(pattern.slice(0, -1))
  return value === pattern
}

/** The entity's full ARN (with path), from the per-mount cache by unique id or else through IAM. */
export async function cachedFullArn(context: RequestContext, state: AuthState, entity: ParsedArn, roleName: string, uniqueId: string): Promise<string> {
  const cache = state.fullArns
  const now = context.emulator.clock.nowMs()
  const hit = cache.get(uniqueId)
  if (hit && hit.expiresMs > now) return hit.arn
  let arn: string
  try {
    arn = await lookUpFullArn(context, state, entity)
  } catch (error) {
    throw new LoginError(LOGIN_MESSAGES.fullArnLookup(formatEntity(entity), roleName, (error as Error).message))
  }
  if (arn === '') throw new LoginError(LOGIN_MESSAGES.fullArnEmpty(formatEntity(entity), roleName))
  cache.set(uniqueId, { arn, expiresMs: now + FULL_ARN_CACHE_MS })
  return arn
}

/** The entity's ARN with its path, from IAM GetUser / GetRole in the entity's account. */
async function lookUpFullArn(context: RequestContext, state: AuthState, entity: ParsedArn): Promise<string> {
  if (partitionRegion(entity.partition) === undefined) throw new Error(LOGIN_MESSAGES.partitionRegion(entity.partition))
  let credentials
  try {
    credentials = await credentialsForAccount(context, state, entity.accountId)
  } catch (error) {
    throw new Error(LOGIN_MESSAGES.iamClientCreate(cloudErrorText(context.emulator, error)))
  }
  const provider = providerCalls(context, state)
  if (entity.type === 'user') {
    try {
      return (await provider.getUser(credentials, entity.friendlyName)).arn
    } catch (error) {
      throw new Error(LOGIN_MESSAGES.fetchUser(entity.friendlyName, cloudErrorText(context.emulator, error)))
    }
  }
  if (entity.type === 'role' || entity.type === 'assumed-role') {
    try {
      return (await provider.getRole(credentials, entity.friendlyName)).arn
    } catch (error) {
      throw new Error(LOGIN_MESSAGES.fetchRole(entity.friendlyName, cloudErrorText(context.emulator, error)))
    }
  }
  throw new Error(LOGIN_MESSAGES.unknownEntityType(entity.type))
}
