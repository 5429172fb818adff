/**
 * The fake cloud's URLs, in one place. Its paths on doppel's own listeners: the AWS faces
 * `/_doppel/cloud/sts|iam|ec2|imds` and, beside them, its set-up routes (answered by the control API).
 * Its host rules: which host names are AWS's (the instance metadata addresses and `*.amazonaws.com`,
 * `*.amazonaws.com.cn`), which service and region a name addresses. The emulator's router, the server's
 * guard and Host check, the MSW handlers, provider endpoint overrides and STS signing all read these.
 */
import { errorsEnvelope, type ServiceUrls } from '../../core/routing/index.ts'

/** Where the fake cloud's paths start on doppel's own listeners. */
export const CLOUD_MOUNT = '/_doppel/cloud/'

/** A path of the fake cloud on doppel's listeners: `/_doppel/cloud/<rest>` (encoded by the caller). */
export function cloudPath(rest: string): string {
  return CLOUD_MOUNT + rest
}

/**
 * The fake cloud's AWS APIs as paths (`/_doppel/cloud/<face>/…`, SDK endpoint overrides and per-instance
 * metadata), and whether each checks its callers itself. STS, IAM and EC2 verify every call's SigV4
 * signature, as AWS does, so the server's guard lets them through beyond loopback without a management
 * token. The metadata service checks no one (on an instance, whoever reaches it gets the role's
 * credentials), so beyond loopback it stays behind the control API's token, as the set-up routes do.
 */
export const AWS_FACES = {
  sts: { checksCallers: true },
  iam: { checksCallers: true },
  ec2: { checksCallers: true },
  imds: { checksCallers: false },
} as const

export type AwsFace = keyof typeof AWS_FACES

/** The AWS face a path (or a raw request target: a query may follow) reaches under `/_doppel/cloud/`, if any. */
export function awsFaceOf(path: string): AwsFace | undefined {
  if (!path.startsWith(CLOUD_MOUNT)) return undefined
  let end = CLOUD_MOUNT.length
  while (end < path.length && path[end] !== '/' && path[end] !== '?') end++
  const first = path.slice(CLOUD_MOUNT.length, end)
  return Object.hasOwn(AWS_FACES, first) ? (first as AwsFace) : undefined
}

/** A SigV4 credential's scope: `<key>/<date>/<region>/<service>/aws4_request`. */
const SCOPE_SERVICE = /Credential=[^/,\s]*\/\d{8}\/[^/,\s]*\/(sts|iam|ec2)\//

/** The query API a request's SigV4 credential scope names (its Authorization header, else a presigned `X-Amz-Credential`), if any. */
export function scopeService(authorization: string | undefined, search: string): 'sts' | 'iam' | 'ec2' | undefined {
  const credential = authorization ?? `Credential=${search === '' ? '' : (new URLSearchParams(search).get('X-Amz-Credential') ?? '')}`
  return SCOPE_SERVICE.exec(credential)?.[1] as 'sts' | 'iam' | 'ec2' | undefined
}

/**
 * The AWS face a request to the fake cloud reaches, as its router decides (`fake-cloud-service.ts`): by
 * path on doppel's listeners (`/_doppel/cloud/<face>/…`), else by host (the metadata addresses, an AWS
 * service name), else by the credential scope's service (the cloud listener, where the host tells
 * nothing); an AWS name it does not serve reaches no face (404), anything else the metadata service.
 * `hostname` is lower-case, without a port (a URL's `hostname`).
 */
export function cloudFaceOf(hostname: string, path: string, scope: () => 'sts' | 'iam' | 'ec2' | undefined): AwsFace | undefined {
  if (path.startsWith(CLOUD_MOUNT)) return awsFaceOf(path)
  if (isMetadataHost(hostname)) return 'imds'
  const service = awsServiceOfHost(hostname) ?? scope()
  if (service !== undefined) return service
  return isAwsHost(hostname) ? undefined : 'imds'
}

/** A face's path on doppel's own listeners (`/_doppel/cloud/sts/`). */
export function awsFacePath(face: AwsFace): string {
  return `${CLOUD_MOUNT}${face}/`
}

/** The fake cloud's URLs on doppel's own origins (its AWS host names: `isFakeCloudHost`). */
export const FAKE_CLOUD_URLS: ServiceUrls<'fake-cloud'> = {
  name: 'fake-cloud',
  ownsPath: (path) => path.startsWith(CLOUD_MOUNT),
  isSetupPath: (path) => awsFaceOf(path) === undefined,
  // The guard's refusals keep the control API's envelope on every `/_doppel/` path, the AWS faces too.
  refusal: (_path, status, message) => errorsEnvelope(status, message),
}


/** The metadata addresses and every name under AWS's two DNS suffixes, case-insensitive; no port. */
const HOST_NAME = String.raw`(?:169\.254\.169\.254|\[fd00:ec2::254\]|(?:[a-z0-9-]+\.)*amazonaws\.com(?:\.cn)?)`

const FAKE_CLOUD_HOST = new RegExp(`^${HOST_NAME}(?::\\d+)?$`, 'i')

/** A URL on a fake-cloud host, matched without its query (MSW's handler for the cloud's real hostnames). */
export const FAKE_CLOUD_URL = new RegExp(`^https?://${HOST_NAME}(?::\\d+)?/`, 'i')

const METADATA_HOSTS = new Set(['169.254.169.254', '[fd00:ec2::254]'])
const AWS_HOST = /\.amazonaws\.com(?:\.cn)?$/
const SERVICE_HOST = /^(sts|iam|ec2)(?:\.[a-z0-9-]+)?\.amazonaws\.com(?:\.cn)?$/
const REGIONAL_SERVICE_HOST = /^(?:sts|iam|ec2)\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$/
const OTHER_PARTITION_HOST = /\.amazonaws\.com\.cn$/
/** STS's global endpoint's host name. */
export const GLOBAL_STS_HOST = 'sts.amazonaws.com'

/** STS's host name in a region's `aws` partition, or the global one without a region. */
export function stsHost(region?: string): string {
  return region === undefined ? GLOBAL_STS_HOST : `sts.${region}.amazonaws.com`
}
const REGIONAL_STS_HOST = /^sts\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$/

/**
 * Where the SDK sends a query API call without an endpoint override: STS and IAM by their global names,
 * EC2 by its regional one.
 */
export function defaultAwsEndpoint(service: 'sts' | 'iam' | 'ec2', region: string): string {
  return service === 'ec2' ? `https://ec2.${region}.amazonaws.com/` : `https://${service === 'sts' ? GLOBAL_STS_HOST : 'iam.amazonaws.com'}/`
}

/** Whether a `Host` (name, with or without a port) is one of the AWS names the fake cloud answers on. */
export function isFakeCloudHost(host: string): boolean {
  return FAKE_CLOUD_HOST.test(host)
}

/** Whether a lower-case host name is an instance metadata address (IPv4 or IPv6). */
export function isMetadataHost(name: string): boolean {
  return METADATA_HOSTS.has(name)
}

/** Whether a lower-case host name is under one of AWS's DNS suffixes. */
export function isAwsHost(name: string): boolean {
  return AWS_HOST.test(name)
}

/** The region in a lower-case regional service host name (`ec2.<region>.amazonaws.com`); undefined for a global one. */
export function awsHostRegion(name: string): string | undefined {
  return REGIONAL_SERVICE_HOST.exec(name)?.[1]
}

/**
 * Whether a lower-case AWS host name is in a partition other than `aws` (`*.amazonaws.com.cn`, aws-cn),
 * where none of the fake cloud's principals (all `arn:aws:`) exist.
 */
export function isOtherPartitionHost(name: string): boolean {
  return OTHER_PARTITION_HOST.test(name)
}

/** The query API a lower-case host name addresses (`sts`, `iam`, `ec2`, global or regional), else undefined. */
export function awsServiceOfHost(name: string): 'sts' | 'iam' | 'ec2' | undefined {
  return SERVICE_HOST.exec(name)?.[1] as 'sts' | 'iam' | 'ec2' | undefined
}

/**
 * The region a request sent to `host` must be signed for at STS (docs/reference/fake-cloud.md §1.1): us-east-1 on
 * the global endpoint, the host's region on a regional one; undefined for any other host (an endpoint
 * override: any known region passes, as the SDK signs overridden endpoints with the client's region).
 */
export function stsEndpointRegion(host: string): string | undefined {
  const name = host.toLowerCase().replace(/:\d+$/, '')
  return name === GLOBAL_STS_HOST ? 'us-east-1' : regionalStsRegion(name)
}

/** The region in a regional STS host name (`sts.<region>.amazonaws.com`); undefined for the global one. */
export function regionalStsRegion(name: string): string | undefined {
  return REGIONAL_STS_HOST.exec(name)?.[1]
}
