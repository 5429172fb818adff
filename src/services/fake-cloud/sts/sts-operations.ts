import { cloudErrors } from '../cloud-errors.ts'
import type { CloudState } from '../cloud-state.ts'
import { isoSeconds } from '../../../core/utc-date.ts'
import type { AssumedRoleCredentials, CallerIdentity } from '../glossary.ts'
import { checkParameters, PARAMETER_RULES } from '../parameter-rules.ts'
import { authorize } from '../iam/authorize.ts'
import { evaluateTrustPolicy } from '../iam/policy-document.ts'
import { addSession, findPrincipal, type Caller } from '../principals.ts'

/** STS operations, shared by the HTTP face and the direct face (docs/reference/fake-cloud.md §4). */

export interface AssumeRoleQuery {
  roleArn?: string
  roleSessionName?: string
  durationSeconds?: string | number
  externalId?: string
}

const ROLE_ARN = /^arn:aws:iam::(\d{12}):role\/(?:[\x21-\x7e]*\/)?([\w+=,.@-]+)$/
const DEFAULT_DURATION = 3600
const CHAINED_MAX = 3600

/** GetCallerIdentity: needs no permission, so any valid credentials get their identity. */
export function getCallerIdentity(caller: Caller): CallerIdentity {
  return { ...caller.identity }
}

/**
 * AssumeRole: validates as AWS does, checks the caller's permission and the role's trust policy (both
 * opt-in: without them any caller may assume any existing role), then issues a session.
 */
export function assumeRole(state: CloudState, caller: Caller, input: AssumeRoleQuery): AssumedRoleCredentials {
  checkParameters(PARAMETER_RULES.assumeRole, {
    roleArn: input.roleArn,
    roleSessionName: input.roleSessionName,
    durationSeconds: input.durationSeconds,
    externalId: input.externalId,
  })
  const roleArn = input.roleArn!
  const match = ROLE_ARN.exec(roleArn)
  if (!match) throw cloudErrors.invalidRoleArn(roleArn)
  const role = findPrincipal(state, match[1]!, 'role', match[2]!)
  if (role === undefined) throw cloudErrors.assumeRoleDenied(caller.identity.arn, roleArn)
  authorize(caller, 'sts:AssumeRole', role.arn)
  const trust = role.trust_policy
  if (trust && evaluateTrustPolicy(trust, { arn: caller.principal.arn, account: caller.account }, input.externalId) !== 'allow') {
    throw cloudErrors.assumeRoleDenied(caller.identity.arn, roleArn)
  }
  const duration = input.durationSeconds === undefined ? DEFAULT_DURATION : Number(input.durationSeconds)
  if (duration > role.max_session_duration!) throw cloudErrors.durationAboveRoleMaximum()
  const chained = caller.key.kind === 'session'
  if (chained && duration > CHAINED_MAX) throw cloudErrors.durationAboveChainingLimit()
  const session = addSession(state, role, input.roleSessionName!, duration, chained)
  return {
    accessKeyId: session.access_key_id,
    secretAccessKey: session.secret_access_key,
    sessionToken: session.session_token!,
    expiration: isoSeconds(session.expires_ms!),
    assumedRoleArn: `arn:aws:sts::${role.account_id}:assumed-role/${role.name}/${session.session_name}`,
    assumedRoleId: `${role.unique_id}:${session.session_name}`,
  }
}
