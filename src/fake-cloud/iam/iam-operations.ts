import { cloudErrors } from '../cloud-errors.ts'
import type { AccessKeyRecord, CloudState, InstanceProfileRecord, PrincipalRecord } from '../cloud-state.ts'
import { checkParameters, PARAMETER_RULES } from '../parameter-rules.ts'
import { addLongTermKey, findInstanceProfile, findPrincipal, longTermKeysOf, type Caller } from '../principals.ts'

/** IAM operations, shared by the HTTP face and the direct face (reference §7). They look in the caller's account. */

const ACCESS_KEYS_PER_USER = 2

/** GetUser: the named user, or the calling user when no name is given. */
export function getUser(state: CloudState, caller: Caller, userName?: string): PrincipalRecord {
  return targetUser(state, caller, userName)
}

/** GetRole by friendly name. */
export function getRole(state: CloudState, caller: Caller, roleName: string | undefined): PrincipalRecord {
  checkParameters(PARAMETER_RULES.roleName, { roleName })
  const role = findPrincipal(state, caller.account, 'role', roleName!)
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
  if (profile === undefined) throw cloudErrors.noSuchInstanceProfile(name!)
  const role = profile.role_arn === null ? undefined : state.principals.get(profile.role_arn)
  return { profile, roles: role === undefined ? [] : [role] }
}

/** ListAccessKeys: a user's long-term keys, no secrets. */
export function listAccessKeys(state: CloudState, caller: Caller, userName?: string): { user: PrincipalRecord; keys: AccessKeyRecord[] } {
  const user = targetUser(state, caller, userName)
  return { user, keys: longTermKeysOf(state, user) }
}

/** CreateAccessKey: at most two keys per user; the new key works at once. */
export function createAccessKey(state: CloudState, caller: Caller, userName?: string): AccessKeyRecord {
  const user = targetUser(state, caller, userName)
  if (longTermKeysOf(state, user).length >= ACCESS_KEYS_PER_USER) throw cloudErrors.accessKeyLimit()
  return addLongTermKey(state, user)
}

/** DeleteAccessKey: the key stops working at once, even when it signed this very request. */
export function deleteAccessKey(state: CloudState, caller: Caller, accessKeyId: string | undefined, userName?: string): void {
  checkParameters(PARAMETER_RULES.accessKeyId, { accessKeyId })
  const user = targetUser(state, caller, userName)
  const key = state.keys.get(accessKeyId!)
  if (key === undefined || key.kind !== 'long-term' || key.owner_arn !== user.arn) throw cloudErrors.noSuchAccessKey(accessKeyId!)
  state.keys.delete(key.access_key_id)
}

/** The named user in the caller's account, or the caller itself when no name is given (users only). */
function targetUser(state: CloudState, caller: Caller, userName: string | undefined): PrincipalRecord {
  if (userName === undefined) {
    if (caller.key.kind !== 'long-term' || caller.principal.type !== 'user') throw cloudErrors.userNameRequired()
    return caller.principal
  }
  checkParameters(PARAMETER_RULES.userName, { userName })
  const user = findPrincipal(state, caller.account, 'user', userName)
  if (user === undefined) throw cloudErrors.noSuchUser(userName)
  return user
}
