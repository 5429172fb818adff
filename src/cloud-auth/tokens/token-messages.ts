/**
 * Every error and warning text of the token endpoints (`lookup-self`, `renew-self`, `revoke-self`) and
 * of renewal's re-checks (reference cloud-auth.md §7, §1.9), once. Clients match on these strings.
 */
import { formatShortDuration } from '../../core/duration.ts'
import { goQuote } from '../go-format.ts'

export const TOKEN_MESSAGES = {
  permissionDenied: 'permission denied',
  batchRenew: 'batch tokens cannot be renewed',
  batchRevoke: 'batch tokens cannot be revoked',
  /** A configured root token has no lease to renew. */
  notRenewable: 'lease is not renewable',
  fieldValidation: (reason: string) => `Field validation failed: ${reason}`,
  /** How the core reports any failure of the backend's renew check. */
  renewFailed: (reason: string) => `failed to renew entry: ${reason}`,
  pastMaxTtl: 'past the max TTL, cannot renew',
  periodCapped: (period: number, max: number) =>
    `period of ${goQuote(formatShortDuration(period))} exceeded the effective max_ttl of ${goQuote(formatShortDuration(max))}; period value is capped accordingly`,
  ttlCapped: (ttl: number, max: number) =>
    `TTL of ${goQuote(formatShortDuration(ttl))} exceeded the effective max_ttl of ${goQuote(formatShortDuration(max))}; TTL value is capped accordingly`,

  // ec2 (§7)
  missingInstanceId: 'no instance ID in auth internal data',
  missingRegion: 'no region in auth internal data',
  verifyInstance: (instanceId: string, reason: string) => `failed to verify instance ID ${goQuote(instanceId)}: ${reason}`,
  accessListMissing: (instanceId: string) => `failed to verify the access list identity entry for instance ID: ${goQuote(instanceId)}`,
  roleNotFound: 'role entry not found',

  // iam (§7)
  missingCanonicalArn: 'unable to retrieve canonical ARN from metadata during renewal',
  missingRoleName: 'error retrieving role_name during renewal',
  missingInferredId: 'no inferred entity ID in auth metadata',
  missingInferredRegion: 'no inferred AWS region in auth metadata',
  noLongerBound: (role: string, arn: string) => `role ${goQuote(role)} no longer bound to ARN ${goQuote(arn)}`,
} as const
