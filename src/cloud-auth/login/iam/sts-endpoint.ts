/**
 * Where the iam login forwards the signed request (reference §5 B.3, B.5): the configured `sts_endpoint`,
 * else the global endpoint, or, with `use_sts_region_from_client`, the regional endpoint of the region in
 * the client's credential scope.
 */

export const DEFAULT_STS_ENDPOINT = 'https://sts.amazonaws.com'

/** Regions the provider's endpoint resolver knows, by DNS suffix of their partition. */
const REGIONS_BY_SUFFIX: Record<string, readonly string[]> = {
  'amazonaws.com': [
    'af-south-1', 'ap-east-1', 'ap-east-2', 'ap-northeast-1', 'ap-northeast-2', 'ap-northeast-3', 'ap-south-1', 'ap-south-2',
    'ap-southeast-1', 'ap-southeast-2', 'ap-southeast-3', 'ap-southeast-4', 'ap-southeast-5', 'ap-southeast-7',
    'ca-central-1', 'ca-west-1', 'eu-central-1', 'eu-central-2', 'eu-north-1', 'eu-south-1', 'eu-south-2',
    'eu-west-1', 'eu-west-2', 'eu-west-3', 'il-central-1', 'me-central-1', 'me-south-1', 'mx-central-1',
    'sa-east-1', 'us-east-1', 'us-east-2', 'us-west-1', 'us-west-2', 'us-gov-east-1', 'us-gov-west-1',
  ],
  'amazonaws.com.cn': ['cn-north-1', 'cn-northwest-1'],
}

/** The regional STS endpoint, or undefined for a region the resolver does not know. */
export function regionalStsEndpoint(region: string): string | undefined {
  for (const [suffix, regions] of Object.entries(REGIONS_BY_SUFFIX)) {
    if (regions.includes(region)) return `https://sts.${region}.${suffix}`
  }
  return undefined
}

/** The region of the `Credential=<key>/<date>/<region>/...` token of an Authorization header. */
export function regionFromAuthorization(authorization: string): string | undefined {
  for (const field of authorization.split(' ')) {
    if (!field.startsWith('Credential=')) continue
    const parts = field.split('/')
    return parts.length < 3 ? undefined : parts[2]
  }
  return undefined
}
