import { cloudErrors } from '../cloud-errors.ts'
import type { AccessKeyRecord, CloudState, InstanceProfileRecord, PrincipalRecord } from '../cloud-state.ts'
import { checkParameters, PARAMETER_RULES } from '../parameter-rules.ts'
import { addLongTermKey, findInstanceProfile, findPrincipal, iamArn, longTermKeysOf, type Caller } from '../principals.ts'
import { authorize } from './authorize.ts'
import { usableFromMs } from './key-propagation.ts'

/** IAM operations, shared by the HTTP face and the direct face (docs/reference/fake-cloud.md §7). They look in the caller's account. */

const ACCESS_KEYS_PER_USER = 2

/** GetUser: the named user, or the calling user when no name is given. */
export function getUser(state: CloudState, caller: Caller, userName?: string): PrincipalRecord {
  return targetUser(state, caller, userName, 'iam:GetUser')
}

/** GetRole by friendly name. */
export function getRole(state: CloudState, caller: Caller, roleName: string | undefined): PrincipalRecord {
  checkParameters(PARAMETER_RULES.roleName, { roleName })
  const role = findPrincipal(state, caller.account, 'role', roleName!)
  authorize(caller, 'iam:GetRole', role?.arn ?? iamArn(caller.account, 'role', '/', roleName!))
  if (role === undefined) throw cloudErrors.noSuchRole(roleName!)
  return role
}

/** GetInstanceProfile by name, with its role (none when the role was deleted). */
export function getInstanceProfile(
  state: CloudState,
  caller: Caller,
  name: string | undefined,
): { profile: InstanceProfileRecord; roles: PrincipalRecord[] } {
  checkParameters(PARAMETER_RULES.instanceProfileName, { instanceProfileName: name })
  const profile = findInstanceProfile(state, caller.account, name!)
  authorize(caller, 'iam:GetInstanceProfile', profile?.arn ?? iamArn(caller.account, 'instance-profile', '/', name!))
  if (profile === undefined) throw cloudErrors.noSuchInstanceProfile(name!)
  const role = profile.role_arn === null ? undefined : state.principals.get(profile.role_arn)
  return { profile, roles: role === undefined ? [] : [role] }
}

/** ListAccessKeys: a user's long-term keys, no secrets. */
export function listAccessKeys(state: CloudState, caller: Caller, userName?: string): { user: PrincipalRecord; keys: AccessKeyRecord[] } {
  const user = targetUser(state, caller, userName, 'iam:ListAccessKeys')
  return { user, keys: longTermKeysOf(state, user) }
}

/** CreateAccessKey: at most two keys per user; the new key works at once, or after the propagation delay. */
export function createAccessKey(state: CloudState, caller: Caller, userName?: string): AccessKeyRecord {
  const user = targetUser(state, caller, userName, 'iam:CreateAccessKey')
  if (longTermKeysOf(state, user).length >= ACCESS_KEYS_PER_USER) throw cloudErrors.accessKeyLimit()
  const key = addLongTermKey(state, user)
  const usableFrom = usableFromMs(state)
  if (usableFrom === undefined) return key
  return state.keys.set({ ...key, usable_from_ms: usableFrom })
}

/** DeleteAccessKey: the key stops working at once, even when it signed this very request. */
export function deleteAccessKey(state: CloudState, caller: Caller, accessKeyId: string | undefined, userName?: string): void {
  checkParameters(PARAMETER_RULES.accessKeyId, { accessKeyId })
  const user = targetUser(state, caller, userName, 'iam:DeleteAccessKey')
  const key = state.keys.get(accessKeyId!)
  if (key === undefined || key.kind !== 'long-term' || key.owner_arn !== user.arn) throw cloudErrors.noSuchAccessKey(accessKeyId!)
  state.keys.delete(key.access_key_id)
}

/**
 * The named user in the caller's account, or the caller itself when no name is given (users only), once
 * the caller may do `action` on it (a missing user is checked under its path-less ARN).
 */
function targetUser(state: CloudState, caller: Caller, userName: string | undefined, action: string): PrincipalRecord {
  if (userName === undefined) {
    if (caller.key.kind !== 'long-term' || caller.principal.type !== 'user') throw cloudErrors.userNameRequired()
    authorize(caller, action, caller.principal.arn)
    return caller.principal
  }
  checkParameters(PARAMETER_RULES.userName, { userName })
  const user = findPrincipal(state, caller.account, 'user', userName)
  authorize(caller, action, user?.arn ?? iamArn(caller.account, 'user', '/', userName))
  if (user === undefined) throw cloudErrors.noSuchUser(userName)
  return user
}
