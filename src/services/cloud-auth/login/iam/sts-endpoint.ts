/**
 * Where the iam login forwards the signed request (docs/reference/cloud-auth.md §5 B.3, B.5): the configured `sts_endpoint`,
 * else the global endpoint, or, with `use_sts_region_from_client`, the regional endpoint of the region in
 * the client's credential scope.
 */
import { GLOBAL_STS_HOST } from '../../../fake-cloud/urls.ts'

export const DEFAULT_STS_ENDPOINT = `https://${GLOBAL_STS_HOST}`

/** The region of the `Credential=<key>/<date>/<region>/...` token of an Authorization header. */
export function regionFromAuthorization(authorization: string): string | undefined {
  for (const field of authorization.split(' ')) {
    if (!field.startsWith('Credential=')) continue
    const parts = field.split('/')
    return parts.length < 3 ? undefined : parts[2]
  }
  return undefined
}
