import type { RequestContext } from '../../../../core/glossary.ts'
import { formatGoDuration } from '../../../../core/duration.ts'
import { decodeStdBase64 } from '../../../../core/go/go-base64.ts'
import { mountTable } from '../../mounts/mount-table.ts'
import { cloudAuthOptions } from '../../options.ts'
import { authProfile } from '../../auth-profile.ts'
import { effectiveIdentityConfig, type AuthState } from '../../state.ts'
import { addressIsAllowed } from '../../tokens/bound-cidrs.ts'
import { prepareAuth } from '../issue-auth.ts'
import type { LoginInput, LoginResult } from '../login-input.ts'
import { BAD_INPUT_500 } from '../../auth-refusal.ts'
import { LoginError } from '../login-error.ts'
import { LOGIN_MESSAGES } from '../login-messages.ts'
import { selectMetadata } from '../metadata.ts'
import type { IdentityDocument } from './identity-document.ts'
import { describeRunningInstance, instanceBoundFailure, InstanceCheckError } from './instance-checks.ts'
import { explanationOf, listText } from '../../../../core/explanation.ts'
import { nextAccessListEntry, evaluateNonce } from './nonce.ts'
import { roleTagGrant } from './role-tag-login.ts'
import { documentFromPkcs7, documentFromSignature } from './signed-document.ts'
import { trustedCertificates } from './trusted-certificates.ts'
import { MESSAGES } from '../../auth-messages.ts'

/**
 * The ec2 login (docs/reference/cloud-auth.md §4), every step in the real service's order: decode and verify the signed
 * document, find the role, check the instance through DescribeInstances and the role's bounds, apply the
 * nonce rules and the role tag, then write the access-list entry and issue the token together, only once
 * every check has passed.
 */
export async function ec2Login(context: RequestContext, state: AuthState, input: LoginInput): Promise<LoginResult> {
  const document = verifiedDocument(context, state, input)

  const roleName = input.role !== '' ? input.role : document.imageId
  if (roleName === '') throw new LoginError(LOGIN_MESSAGES.missingRoleName, BAD_INPUT_500)
  const role = state.roles.get(roleName.toLowerCase())
  if (!role) throw new LoginError(LOGIN_MESSAGES.ec2RoleNotFound(roleName))
  if (!addressIsAllowed(context.remoteAddress, role.token_bound_cidrs)) throw new LoginError(MESSAGES.permissionDenied, 403)
  if (role.auth_type !== 'ec2') throw new LoginError(LOGIN_MESSAGES.authTypeNotAllowed('ec2', roleName))
  const identityConfig = effectiveIdentityConfig(state)
  const aliasName =
    identityConfig.ec2_alias === 'instance_id' ? document.instanceId : identityConfig.ec2_alias === 'image_id' ? document.imageId : role.role_id

  let instance
  try {
    instance = await describeRunningInstance(context, state, document.instanceId, document.region, document.accountId)
  } catch (error) {
    if (error instanceof InstanceCheckError) throw new LoginError(LOGIN_MESSAGES.verifyInstance(error.message)).explain(explanationOf(error, 'instance check'))
    throw error
  }
  if (role.bound_region.length > 0 && !role.bound_region.includes(document.region)) {
    throw new LoginError(LOGIN_MESSAGES.regionBound(document.region, roleName)).explain({
      rule: `role ${roleName}: bound_region`,
      seen: document.region,
      expected: listText(role.bound_region),
    })
  }
  const failure = await instanceBoundFailure(context, state, instance, role, roleName, document)
  if (failure !== undefined) throw new LoginError(LOGIN_MESSAGES.ec2ValidationFailed(failure.reason)).explain(failure.explanation)

  const stored = state.accessList.get(document.instanceId)
  const nonce = evaluateNonce(input.nonce, stored, role, document.pendingTime, () => context.emulator.random.uuid())

  const { maxTtl: mountMaxTtl } = mountTable(context.emulator).leaseTtls(state.mount)
  let shortestMaxTtl = mountMaxTtl
  let longestMaxTtl = mountMaxTtl
  if (role.token_max_ttl > 0 && role.token_max_ttl < shortestMaxTtl) shortestMaxTtl = role.token_max_ttl
  if (role.token_max_ttl > longestMaxTtl) longestMaxTtl = role.token_max_ttl
  let policies = role.token_policies
  let tagMaxTtl = 0
  if (role.role_tag !== '') {
    const grant = roleTagGrant(state, role, roleName, instance)
    if (grant.policies.length > 0) policies = grant.policies
    if (!nonce.disallowReauthentication) nonce.disallowReauthentication = grant.disallowReauthentication
    tagMaxTtl = grant.maxTtl
    if (grant.maxTtl > 0 && grant.maxTtl < shortestMaxTtl) shortestMaxTtl = grant.maxTtl
    if (grant.maxTtl > longestMaxTtl) longestMaxTtl = grant.maxTtl
  }

  const entry = nextAccessListEntry(stored, nonce, {
    instanceId: document.instanceId,
    roleName,
    pendingTime: document.pendingTime,
    nowMs: context.emulator.clock.nowMs(),
    longestMaxTtl,
  })

  const selected = selectMetadata(identityConfig.ec2_metadata, {
    instance_id: document.instanceId,
    region: document.region,
    account_id: document.accountId,
    ami_id: document.imageId,
    auth_type: 'ec2',
  })
  const metadata: Record<string, string> = { role_tag_max_ttl: formatGoDuration(tagMaxTtl), role: roleName, ...selected }
  if (!nonce.disallowReauthentication && !nonce.supplied) metadata.nonce = nonce.clientNonce
  // The method stores the entry before it returns; the core's refusals (a root policy) come after, so the
  // entry stays (Vault's builtin/credential/aws path_login.go, pathLoginUpdateEc2; seen on a real server).
  state.accessList.set(entry)
  const prepared = prepareAuth(context, {
    mount: state.mount,
    role,
    policies,
    maxTtl: shortestMaxTtl,
    metadata,
    displayName: '',
    aliasName,
    aliasMetadata: selected,
    internalData: { auth_type: 'ec2', instance_id: document.instanceId, region: document.region, account_id: document.accountId },
  })
  prepared.commit()
  return { auth: prepared.auth, warnings: prepared.warnings }
}

/** Step A and B: exactly one of `pkcs7` or identity + signature, decoded and verified. */
function verifiedDocument(context: RequestContext, state: AuthState, input: LoginInput): IdentityDocument {
  let identity: Buffer = Buffer.alloc(0)
  if (input.identity !== '') {
    const decoded = decodeStdBase64(input.identity)
    if (!decoded || decoded.length === 0) throw new LoginError(LOGIN_MESSAGES.identityBase64)
    identity = decoded
  }
  let signature: Buffer = Buffer.alloc(0)
  if (input.signature !== '') {
    const decoded = decodeStdBase64(input.signature)
    if (!decoded) throw new LoginError(LOGIN_MESSAGES.signatureBase64)
    signature = decoded
  }
  if (input.pkcs7 === '' && identity.length === 0 && signature.length === 0) throw new LoginError(LOGIN_MESSAGES.neitherEc2Input)
  if (input.pkcs7 !== '' && identity.length > 0 && signature.length > 0) throw new LoginError(LOGIN_MESSAGES.bothEc2Inputs)
  const allowSha1 = cloudAuthOptions(context.emulator).allowSha1 === true || authProfile(context.profile).acceptsSha1Signatures
  if (input.pkcs7 !== '') return documentFromPkcs7(input.pkcs7, trustedCertificates(context, state, 'pkcs7'), allowSha1)
  return documentFromSignature(identity, signature, trustedCertificates(context, state, 'identity'), allowSha1)
}
