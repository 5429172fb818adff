import type { RequestContext } from '../../../../core/glossary.ts'
import type { DescribedInstance } from '../../../fake-cloud/index.ts'
import type { RoleEntry } from '../../glossary.ts'
import { cloudErrorText, credentialsForAccount } from '../../provider/provider-client.ts'
import { IncompleteDescription, providerCalls } from '../../provider/index.ts'
import type { AuthState } from '../../state.ts'
import { parseIamArn } from '../../iam-arn.ts'
import { BAD_INPUT_500 } from '../../auth-refusal.ts'
import { LoginError } from '../login-error.ts'
import { LOGIN_MESSAGES } from '../login-messages.ts'
import { errorKind } from '../../../../core/doppel-error.ts'
import { explanationOf, listText, type Explanation } from '../../../../core/explanation.ts'
import { cloudPath } from '../../../fake-cloud/urls.ts'

/** Why DescribeInstances did not give a running instance; the caller adds its flow's prefix. */
export class InstanceCheckError extends errorKind('InstanceCheckError', 'DOPPEL_INSTANCE_CHECK_FAILED') {}

/**
 * DescribeInstances for one instance in `region`, with credentials for `accountId` (docs/reference/cloud-auth.md §4 D):
 * the instance must be the one asked for and `running`.
 */
export async function describeRunningInstance(
  context: RequestContext,
  state: AuthState,
  instanceId: string,
  region: string,
  accountId: string,
): Promise<DescribedInstance> {
  let instance: DescribedInstance
  try {
    const credentials = await credentialsForAccount(context, state, accountId)
    try {
      instance = await providerCalls(context, state).describeInstance(credentials, region, instanceId)
    } catch (error) {
      if (error instanceof IncompleteDescription) throw new InstanceCheckError(LOGIN_MESSAGES.incompleteDescription[error.missing])
      throw new InstanceCheckError(LOGIN_MESSAGES.describeFailed(instanceId, cloudErrorText(context.emulator, error))).explain(
        explanationOf(error, `ec2:DescribeInstances of ${instanceId}`),
      )
    }
  } catch (error) {
    if (error instanceof InstanceCheckError) throw error
    throw new InstanceCheckError(cloudErrorText(context.emulator, error)).explain(explanationOf(error, `provider credentials for account ${accountId}`))
  }
  if (instance.instanceId !== instanceId) {
    throw new InstanceCheckError(LOGIN_MESSAGES.instanceIdMismatch).explain({ rule: 'instance id', seen: instance.instanceId, expected: instanceId })
  }
  if (instance.state.name !== 'running') {
    throw new InstanceCheckError(LOGIN_MESSAGES.notRunning).explain({
      rule: 'instance state',
      seen: `${instanceId} is ${instance.state.name}`,
      expected: 'running',
      hint: `start the instance (POST ${cloudPath('instances/<id>/start')}, or doppel.cloud)`,
    })
  }
  return instance
}

/** The document facts the bound checks compare with (for iam inference, a synthetic document). */
export interface InstanceFacts {
  accountId: string
  region: string
}

/** A bound the instance fails: the message's reason (the caller adds its prefix) and the explanation. */
export interface BoundFailure {
  reason: string
  explanation: Explanation
}

/** `role web: bound_ami_id` is [ami-good]; the instance's is ami-bad. */
function failed(reason: string, roleName: string, bound: string, expected: readonly string[], seen: string): BoundFailure {
  return { reason, explanation: { rule: `role ${roleName}: ${bound}`, seen, expected: listText(expected) } }
}

/**
 * The role's instance bounds in the real service's order (docs/reference/cloud-auth.md §4 E.2). Returns the validation
 * failure (the caller adds `Error validating instance: ` or `error validating instance: `), or undefined
 * when every bound holds. Missing instance attributes are refused with their own message (a 500 in the
 * real service, 400 in the service profile: `BAD_INPUT_500`).
 */
export async function instanceBoundFailure(
  context: RequestContext,
  state: AuthState,
  instance: DescribedInstance,
  role: RoleEntry,
  roleName: string,
  facts: InstanceFacts,
): Promise<BoundFailure | undefined> {
  if (role.bound_ec2_instance_id && role.bound_ec2_instance_id.length > 0 && !role.bound_ec2_instance_id.includes(instance.instanceId)) {
    return failed(LOGIN_MESSAGES.instanceIdBound(instance.instanceId, roleName), roleName, 'bound_ec2_instance_id', role.bound_ec2_instance_id, instance.instanceId)
  }
  if (role.bound_account_id.length > 0 && !role.bound_account_id.includes(facts.accountId)) {
    return failed(LOGIN_MESSAGES.accountIdBound(facts.accountId, roleName), roleName, 'bound_account_id', role.bound_account_id, facts.accountId)
  }
  // The instance attributes bound by value, in the real service's order; a missing one is an error of the
  // provider's answer, not a refusal.
  const attributes = [
    ['bound_ami_id', instance.imageId, LOGIN_MESSAGES.amiNil, LOGIN_MESSAGES.amiBound],
    ['bound_subnet_id', instance.subnetId, LOGIN_MESSAGES.subnetNil, LOGIN_MESSAGES.subnetBound],
    ['bound_vpc_id', instance.vpcId, LOGIN_MESSAGES.vpcNil, LOGIN_MESSAGES.vpcBound],
  ] as const
  for (const [field, value, nil, refusal] of attributes) {
    const bound = role[field]
    if (bound.length === 0) continue
    if (value === undefined) throw new LoginError(nil, BAD_INPUT_500)
    if (!bound.includes(value)) return failed(refusal(value, roleName), roleName, field, bound, value)
  }
  if (role.bound_iam_instance_profile_arn.length > 0) {
    const profileArn = instanceProfileArn(instance)
    if (!role.bound_iam_instance_profile_arn.some((bound) => arnBoundMatches(bound, profileArn))) {
      const bound = role.bound_iam_instance_profile_arn
      return failed(LOGIN_MESSAGES.profileBound(profileArn, roleName), roleName, 'bound_iam_instance_profile_arn', bound, profileArn)
    }
  }
  if (role.bound_iam_role_arn.length > 0) {
    const roleArn = await instanceRoleArn(context, state, instance, facts)
    if (!role.bound_iam_role_arn.some((bound) => arnBoundMatches(bound, roleArn))) {
      return failed(LOGIN_MESSAGES.roleArnBound(roleArn, roleName), roleName, 'bound_iam_role_arn', role.bound_iam_role_arn, roleArn)
    }
  }
  return undefined
}

/** Exact match, or a trailing `*` as a prefix wildcard; a `*` anywhere else is a literal character. */
function arnBoundMatches(bound: string, arn: string): boolean {
  if (bound.endsWith('*') && arn.startsWith(bound.slice(0, -1))) return true
  return arn === bound
}

function instanceProfileArn(instance: DescribedInstance): string {
  if (!instance.iamInstanceProfile) throw new LoginError(LOGIN_MESSAGES.profileNil, BAD_INPUT_500)
  if (instance.iamInstanceProfile.arn === undefined || instance.iamInstanceProfile.arn === null) {
    throw new LoginError(LOGIN_MESSAGES.profileArnNil, BAD_INPUT_500)
  }
  return instance.iamInstanceProfile.arn
}

/** The ARN of the one role in the instance's profile, through IAM GetInstanceProfile. */
async function instanceRoleArn(context: RequestContext, state: AuthState, instance: DescribedInstance, facts: InstanceFacts): Promise<string> {
  const profileArn = instanceProfileArn(instance)
  if (profileArn === '') throw new LoginError(LOGIN_MESSAGES.profileArnEmpty, BAD_INPUT_500)
  let profileName: string
  try {
    profileName = parseIamArn(profileArn).friendlyName
  } catch (error) {
    throw new LoginError(LOGIN_MESSAGES.profileArnParse(profileArn, (error as Error).message), BAD_INPUT_500)
  }
  let credentials
  try {
    credentials = await credentialsForAccount(context, state, facts.accountId)
  } catch (error) {
    throw new LoginError(LOGIN_MESSAGES.iamClient(cloudErrorText(context.emulator, error)), BAD_INPUT_500)
  }
  let roles
  try {
    roles = (await providerCalls(context, state).getInstanceProfile(credentials, profileName)).roles ?? []
  } catch (error) {
    throw new LoginError(LOGIN_MESSAGES.roleArnFetch(cloudErrorText(context.emulator, error)), BAD_INPUT_500)
  }
  if (roles.length !== 1) throw new LoginError(LOGIN_MESSAGES.roleArnFetch(LOGIN_MESSAGES.profileRoles), BAD_INPUT_500)
  return roles[0]!.arn
}
