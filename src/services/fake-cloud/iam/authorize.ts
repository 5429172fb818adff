import { cloudErrors } from '../cloud-errors.ts'
import type { Caller } from '../principals.ts'
import { evaluateIdentityPolicies } from './policy-document.ts'

/**
 * The caller's permission for `action` on `resource` (opt-in): a principal created without `policies` may do
 * anything, as before; one with policies needs an Allow and no Deny. An assumed-role session acts with its
 * role's policies. Refusals are AWS's: `AccessDenied` (STS, IAM) or `UnauthorizedOperation` (EC2).
 */
export function authorize(caller: Caller, action: string, resource: string, service: 'query' | 'ec2' = 'query'): void {
  const policies = caller.principal.policies
  if (policies === undefined || policies === null) return
  const decision = evaluateIdentityPolicies(policies, action, resource)
  if (decision === 'allow') return
  const explicit = decision === 'explicit-deny'
  throw service === 'ec2'
    ? cloudErrors.unauthorizedOperation(caller.identity.arn, action, explicit)
    : cloudErrors.notAuthorized(caller.identity.arn, action, resource, explicit)
}
