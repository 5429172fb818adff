import { asEc2Error, cloudErrors } from './cloud-errors.ts'
import { CloudError } from './glossary.ts'
import { checkStsScopeRegion } from './sigv4/verify-sigv4.ts'
import { awsHostRegion, awsServiceOfHost, isAwsHost, isOtherPartitionHost } from './urls.ts'

/**
 * A direct-face call that an endpoint override sends to a real AWS host name meets that host as AWS would
 * (docs/reference/fake-cloud.md §1.1): a host of another partition (`*.amazonaws.com.cn`) knows none of the fake
 * cloud's keys, which are all `aws`'s (InvalidClientTokenId; EC2's AuthFailure); STS refuses a request signed
 * for a region other than its endpoint's (`Credential should be scoped to a valid region`); a regional EC2
 * host answers for its own region's instances only. Returns the region the call is answered in: the
 * signing region unless an EC2 host names its own. Any other endpoint (none, doppel's own) changes
 * nothing.
 */
export function regionAtAwsHost(service: 'ec2' | 'iam' | 'sts', endpoint: string, signingRegion: string): string {
  const host = hostName(endpoint)
  if (host === undefined || !isAwsHost(host)) return signingRegion
  try {
    if (isOtherPartitionHost(host)) throw cloudErrors.invalidClientTokenId()
    if (service === 'sts') checkStsScopeRegion(signingRegion, host)
  } catch (error) {
    throw service === 'ec2' && error instanceof CloudError ? asEc2Error(error) : error
  }
  // EC2's global name is us-east-1's endpoint.
  return service === 'ec2' && awsServiceOfHost(host) === 'ec2' ? (awsHostRegion(host) ?? 'us-east-1') : signingRegion
}

/** The endpoint's lower-case host name; none for an empty or unparsable endpoint (no exception: a login makes several such calls). */
function hostName(endpoint: string): string | undefined {
  return endpoint === '' ? undefined : URL.parse(endpoint)?.hostname.toLowerCase()
}
