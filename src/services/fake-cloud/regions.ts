/**
 * The regions the provider's endpoint resolver knows, by DNS suffix of their partition: what makes a
 * credential scope's region "valid" at STS, and where `sts.<region>.<suffix>` exists.
 */
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

const SUFFIX_OF_REGION = new Map(Object.entries(REGIONS_BY_SUFFIX).flatMap(([suffix, regions]) => regions.map((r) => [r, suffix] as const)))

/** The DNS suffix of a known region's partition (`amazonaws.com`, `amazonaws.com.cn`), else undefined. */
export function regionDnsSuffix(region: string): string | undefined {
  return SUFFIX_OF_REGION.get(region)
}

/** The regional STS endpoint, or undefined for a region the resolver does not know. */
export function regionalStsEndpoint(region: string): string | undefined {
  const suffix = regionDnsSuffix(region)
  return suffix === undefined ? undefined : `https://sts.${region}.${suffix}`
}
