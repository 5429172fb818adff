/**
 * Every error and warning text only the token endpoints (`create`, `lookup`, `renew`, `revoke`, by id, accessor or self) and
 * renewal's re-checks use (docs/reference/cloud-auth.md §7, docs/reference/cloud-auth.md §1.9), once; the texts they share with other
 * endpoints (`permission denied`, field validation, TTL capping) are in `../auth-messages.ts`. Clients match on
 * these strings.
 */
import { goQuote, goQuoteList } from '../../../core/go/go-format.ts'

export const TOKEN_MESSAGES = {
  /** `lookup` of a token the store does not hold (403). */
  badToken: 'bad token',
  /** A `token` field that is no string (403, before the handler). */
  invalidToken: 'invalid token',
  missingTokenId: 'missing token ID',
  /** `revoke-orphan` of a token the store does not hold. */
  orphanNotFound: 'token to revoke not found',
  /** `renew` of a token the store does not hold. */
  tokenNotFound: 'token not found',
  missingAccessor: 'missing accessor',
  // the capabilities paths (docs/reference/cloud-auth.md §7.4)
  noTokenFound: 'no token found',
  pathsMissing: 'paths must be supplied',
  missingPath: 'missing path',
  invalidAccessor: 'invalid accessor',
  /** `revoke-accessor`'s warning for an accessor of no token (200). */
  noTokenForAccessor: 'No token found with this accessor',
  batchRenew: 'batch tokens cannot be renewed',
  batchRevoke: 'batch tokens cannot be revoked',
  /** A configured root token has no lease to renew. */
  notRenewable: 'lease is not renewable',
  /** How the core reports any failure of the backend's renew check. */
  renewFailed: (reason: string) => `failed to renew entry: ${reason}`,
  pastMaxTtl: 'past the max TTL, cannot renew',

  // create (docs/reference/cloud-auth.md §7.2)
  unknownRole: (name: string) => `unknown role ${name}`,
  noParent: 'parent token lookup failed: no parent found',
  restrictedUse: 'restricted use token cannot generate child tokens',
  invalidTokenType: "invalid 'token_type' value",
  batchWith: (field: string) => `batch tokens cannot have ${goQuote(field)} set`,
  batchUnparsable: (field: string) => `${goQuote(field)} value could not be parsed`,
  batchRoot: 'batch tokens cannot be root tokens',
  negativeUses: 'number of uses cannot be negative',
  entityAliasWithoutRole: "'entity_alias' is only allowed in combination with token role",
  notAssignable: (policy: string) => `cannot assign policy ${goQuote(policy)}`,
  notPositive: (field: string) => `${field} must be positive`,
  expiringRootParent: 'expiring root tokens cannot create non-expiring root tokens',
  customIdPrefix: (prefix: string) => `custom token ID cannot have the '${prefix}' prefix`,
  customIdPeriod: "custom token ID cannot have a '.' in the value",
  duplicateId: 'cannot create a token with a duplicate ID',
  policyMissing: (policy: string) => `Policy ${goQuote(policy)} does not exist`,

  // token roles (docs/reference/cloud-auth.md §7.3)
  pathSuffixInvalid: (pattern: string) => `given role path suffix contains invalid characters; must match ${pattern}`,
  pathSuffixParent: 'error registering path suffix: path cannot contain parent references',
  roleTokenTypeNull: "Invalid 'token_type' value: null",
  roleFields: (reason: string) => `error parsing role fields: ${reason}`,
  boundCidrsUnparsable: (reason: string) => `error parsing bound_cidrs: ${reason}`,
  deprecatedIgnored: (current: string, deprecated: string) => `Both '${current}' and deprecated '${deprecated}' value supplied, ignoring the deprecated value`,
  roleExplicitMaxAboveSystem: (explicitMax: number, systemMax: number) =>
    `Given explicit max TTL of ${explicitMax} is greater than system/mount allowed value of ${systemMax} seconds; until this is fixed attempting to create tokens against this role will result in an error`,
  batchRole: (what: string) => `'token_type' cannot be 'batch' when role is set to generate ${what === 'explicit max' ? 'tokens with an explicit max TTL' : `${what} tokens`}`,
  roleGone: (role: string) => `original token role ${goQuote(role)} could not be found, not renewing`,
  invalidEntityAlias: "invalid 'entity_alias' value",
  notSubsetOfRole: (policies: string[], allowed: string[], globs: string[]) =>
    `token policies (${goQuoteList(policies)}) must be subset of the role's allowed policies (${goQuoteList(allowed)}) or glob policies (${goQuoteList(globs)})`,
  disallowedByRole: (policy: string) => `token policy ${goQuote(policy)} is disallowed by this role`,
  lesserExplicitMax: (seconds: number) => `Explicit max TTL specified both during creation call and in role; using the lesser value of ${seconds} seconds`,
  lesserPeriod: (seconds: number) => `Period specified both during creation call and in role; using the lesser value of ${seconds} seconds`,

  // ec2 (docs/reference/cloud-auth.md §7)
  missingInstanceId: 'no instance ID in auth internal data',
  missingRegion: 'no region in auth internal data',
  verifyInstance: (instanceId: string, reason: string) => `failed to verify instance ID ${goQuote(instanceId)}: ${reason}`,
  accessListMissing: (instanceId: string) => `failed to verify the access list identity entry for instance ID: ${goQuote(instanceId)}`,

  // iam (docs/reference/cloud-auth.md §7)
  missingCanonicalArn: 'unable to retrieve canonical ARN from metadata during renewal',
  missingRoleName: 'error retrieving role_name during renewal',
  missingInferredId: 'no inferred entity ID in auth metadata',
  missingInferredRegion: 'no inferred AWS region in auth metadata',
  noLongerBound: (role: string, arn: string) => `role ${goQuote(role)} no longer bound to ARN ${goQuote(arn)}`,
} as const
