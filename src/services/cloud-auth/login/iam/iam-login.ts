import { explanationOf } from '../../../../core/explanation.ts'
import type { RequestContext } from '../../../../core/glossary.ts'
import type { IdentityConfig, RoleEntry } from '../../glossary.ts'
import { effectiveIdentityConfig, type AuthState } from '../../state.ts'
import { addressIsAllowed } from '../../tokens/bound-cidrs.ts'
import { describeRunningInstance, instanceBoundFailure, InstanceCheckError } from '../ec2/instance-checks.ts'
import { prepareAuth } from '../issue-auth.ts'
import type { LoginInput, LoginResult } from '../login-input.ts'
import { LoginError } from '../login-error.ts'
import { LOGIN_MESSAGES } from '../login-messages.ts'
import { selectMetadata } from '../metadata.ts'
import { IamArnError, parseIamArn, type ParsedArn } from '../../iam-arn.ts'
import { canonicalArn } from './arn.ts'
import { forwardCallerIdentity } from './forward.ts'
import { checkPrincipalBinding } from './principal-binding.ts'
import { validateIamRequest } from './request-validation.ts'
import type { CallerIdentityResult } from './sts-response.ts'
import { MESSAGES } from '../../auth-messages.ts'
import { authProfile } from '../../auth-profile.ts'

/**
 * The iam login (docs/reference/cloud-auth.md §5): validate the signed caller-identity request, replay it to STS (the fake
 * cloud's, which verifies SigV4, or the configured endpoint over HTTP), then role, principal binding and inference, and issue the token.
 */
export async function iamLogin(context: RequestContext, state: AuthState, input: LoginInput): Promise<LoginResult> {
  const signed = validateIamRequest(
    { method: input.iamMethod, url: input.iamUrl, body: input.iamBody, headers: input.iamHeaders },
    state.clientConfig,
    authProfile(context.profile).serverIdHeader,
  )
  const caller = await forwardCallerIdentity(context, signed)
  let entity: ParsedArn
  try {
    entity = parseIamArn(caller.arn)
  } catch (error) {
    if (error instanceof IamArnError) throw new LoginError(LOGIN_MESSAGES.arnParse(caller.arn, error.message))
    throw error
  }

  const roleName = input.role !== '' ? input.role : entity.friendlyName
  const role = state.roles.get(roleName.toLowerCase())
  if (!role) throw new LoginError(LOGIN_MESSAGES.iamRoleNotFound(roleName))
  if (!addressIsAllowed(context.remoteAddress, role.token_bound_cidrs)) throw new LoginError(MESSAGES.permissionDenied, 403)
  if (role.auth_type !== 'iam') throw new LoginError(LOGIN_MESSAGES.authTypeNotAllowed('iam', roleName))
  const identityConfig = effectiveIdentityConfig(state)
  const callerUniqueId = caller.userId.split(':')[0]!
  const aliasName = iamAliasName(identityConfig, role, entity, caller, callerUniqueId)

  await checkPrincipalBinding(context, state, role, roleName, entity, caller, callerUniqueId)
  const inferred = await inferInstance(context, state, role, roleName, entity, caller)
  const inferredEntityId = inferred?.instanceId ?? ''

  const selected = selectMetadata(identityConfig.iam_metadata, {
    client_arn: caller.arn,
    canonical_arn: canonicalArn(entity),
    client_user_id: callerUniqueId,
    auth_type: 'iam',
    inferred_entity_type: inferredEntityId === '' ? '' : 'ec2_instance',
    inferred_entity_id: inferredEntityId,
    inferred_aws_region: role.inferred_aws_region,
    inferred_hostname: inferred?.privateDnsName ?? '',
    account_id: entity.accountId,
  })
  const prepared = prepareAuth(context, {
    mount: state.mount,
    role,
    policies: role.token_policies,
    maxTtl: role.token_max_ttl,
    metadata: { role_id: role.role_id, ...selected },
    displayName: entity.type === 'assumed-role' ? `${entity.friendlyName}/${entity.sessionInfo}` : entity.friendlyName,
    aliasName,
    aliasMetadata: selected,
    internalData: {
      auth_type: 'iam',
      role_name: roleName,
      role_id: role.role_id,
      canonical_arn: canonicalArn(entity),
      client_user_id: callerUniqueId,
      inferred_entity_id: inferredEntityId,
      inferred_aws_region: role.inferred_aws_region,
      account_id: entity.accountId,
    },
  })
  prepared.commit()
  return { auth: prepared.auth, warnings: prepared.warnings }
}

function iamAliasName(config: IdentityConfig, role: RoleEntry, entity: ParsedArn, caller: CallerIdentityResult, uniqueId: string): string {
  switch (config.iam_alias) {
    case 'unique_id':
      return uniqueId
    case 'full_arn':
      return caller.arn
    case 'canonical_arn':
      return canonicalArn(entity)
    default:
      return role.role_id
  }
}

/**
 * Inference as an EC2 instance (docs/reference/cloud-auth.md §5 H): the assumed-role session name is the instance id; the
 * instance must run in the role's region, in the caller's account, and meet the role's instance bounds.
 * Returns the inferred instance (its id and private DNS name), or undefined when the role does not infer.
 */
async function inferInstance(
  context: RequestContext,
  state: AuthState,
  role: RoleEntry,
  roleName: string,
  entity: ParsedArn,
  caller: CallerIdentityResult,
): Promise<{ instanceId: string; privateDnsName: string } | undefined> {
  if (role.inferred_entity_type !== 'ec2_instance') return undefined
  const instanceId = entity.sessionInfo
  const region = role.inferred_aws_region
  let instance
  try {
    instance = await describeRunningInstance(context, state, instanceId, region, caller.account)
  } catch (error) {
    if (error instanceof InstanceCheckError) {
      throw new LoginError(LOGIN_MESSAGES.inferenceFailed(instanceId, region, error.message)).explain(explanationOf(error, 'instance check'))
    }
    throw error
  }
  const failure = await instanceBoundFailure(context, state, instance, role, roleName, { accountId: caller.account, region })
  if (failure !== undefined) throw new LoginError(LOGIN_MESSAGES.iamValidationFailed(failure.reason)).explain(failure.explanation)
  return { instanceId, privateDnsName: instance.privateDnsName }
}
