import type { DescribedInstance } from '../../../fake-cloud/index.ts'
import type { RoleEntry } from '../../glossary.ts'
import { RoleTagError, verifyRoleTag } from '../../role-tags/index.ts'
import type { AuthState } from '../../state.ts'
import { BAD_INPUT_500 } from '../../auth-refusal.ts'
import { LoginError } from '../login-error.ts'
import { LOGIN_MESSAGES } from '../login-messages.ts'

/** What a verified role tag changes about the login. */
export interface RoleTagGrant {
  /** Empty when the tag carries no policies (the role's apply). */
  policies: string[]
  /** Seconds; 0 when the tag has no `t=`. */
  maxTtl: number
  disallowReauthentication: boolean
}

/**
 * The role tag on the instance, read and checked in the real service's order (docs/reference/cloud-auth.md §4 G.4): present,
 * parses and verifies, names the role exactly as sent, fits the instance, not deny-listed, policies a
 * subset of the role's. Failures are 500s in the real service; 400 in the service profile (`BAD_INPUT_500`), same messages.
 *
 * @note The spec says a tag created with explicitly empty policies grants only `default` (the tag route
 * writes `p=default`); `default` therefore always counts as part of the role's policies here.
 */
export function roleTagGrant(state: AuthState, role: RoleEntry, roleName: string, instance: DescribedInstance): RoleTagGrant {
  const value = instance.tags.find((tag) => tag.key === role.role_tag)?.value ?? ''
  if (value === '') throw new LoginError(LOGIN_MESSAGES.missingTag(role.role_tag), BAD_INPUT_500)
  let tag
  try {
    tag = verifyRoleTag(state, value).tag
  } catch (error) {
    if (error instanceof RoleTagError) throw new LoginError(error.message, BAD_INPUT_500)
    throw error
  }
  if (tag.role !== roleName) throw new LoginError(LOGIN_MESSAGES.tagRoleMismatch, BAD_INPUT_500)
  if (tag.instance_id !== '' && tag.instance_id !== instance.instanceId) throw new LoginError(LOGIN_MESSAGES.tagInstanceMismatch, BAD_INPUT_500)
  if (state.denyList.has(value)) throw new LoginError(LOGIN_MESSAGES.tagDenyListed, BAD_INPUT_500)
  const allowed = new Set([...role.token_policies, 'default'])
  if (!tag.policies.every((policy) => allowed.has(policy))) throw new LoginError(LOGIN_MESSAGES.tagPolicies, BAD_INPUT_500)
  return { policies: tag.policies, maxTtl: tag.max_ttl, disallowReauthentication: tag.disallow_reauthentication }
}
