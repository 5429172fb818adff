/**
 * `resolve_aws_unique_ids`: a principal ARN's unique id (UserId, RoleId, InstanceProfileId), looked up in
 * the provider's IAM (`iam_endpoint`) as the service in the ARN's account (docs/reference/cloud-auth.md §3.7 step 7, docs/reference/cloud-auth.md §9).
 */
import type { RequestContext } from '../../../core/glossary.ts'
import { goQuote } from '../../../core/go/go-format.ts'
import { parseIamArn, partitionRegion } from '../iam-arn.ts'
import { cloudErrorText, credentialsForAccount } from '../provider/provider-client.ts'
import { providerCalls } from '../provider/index.ts'
import type { AuthState } from '../state.ts'

/** Resolves one ARN; throws an Error whose message is the real service's inner error text. */
export async function resolvePrincipalId(context: RequestContext, state: AuthState, arn: string): Promise<string> {
  const entity = parseIamArn(arn)
  if (partitionRegion(entity.partition) === undefined) {
    throw new Error(`unable to resolve partition ${goQuote(entity.partition)} to a region`)
  }
  const credentials = await credentialsForAccount(context, state, entity.accountId)
  const provider = providerCalls(context, state)
  try {
    switch (entity.type) {
      case 'user':
        return (await provider.getUser(credentials, entity.friendlyName)).id
      case 'role':
        return (await provider.getRole(credentials, entity.friendlyName)).id
      case 'instance-profile':
        return (await provider.getInstanceProfile(credentials, entity.friendlyName)).id
      default:
        throw new Error(`unrecognized error type ${goQuote(entity.type)}`)
    }
  } catch (error) {
    throw new Error(cloudErrorText(context.emulator, error))
  }
}
