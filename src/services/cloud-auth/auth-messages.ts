/**
 * Every error and warning text of the management endpoints, and the texts the login and the token
 * endpoints share with them, once (docs/reference/cloud-auth.md §1, docs/reference/cloud-auth.md §3, docs/reference/cloud-auth.md §8). Clients match on these strings,
 * so they are the real service's to the letter; handlers only pick one. Texts only the login or only the
 * token endpoints use are in `login/messages.ts` and `tokens/token-messages.ts`, never repeated here.
 */
import { formatGoDuration, formatShortDuration } from '../../core/duration.ts'
import { goList, goQuote, goQuoteList } from '../../core/go/go-format.ts'

export const MESSAGES = {
  // HTTP layer (docs/reference/cloud-auth.md §1)
  permissionDenied: 'permission denied',
  unsupportedPath: 'unsupported path',
  unsupportedOperation: 'unsupported operation',
  fieldValidation: (reason: string) => `Field validation failed: ${reason}`,
  ignoredParameters: (names: string[]) => `Endpoint ignored these unrecognized parameters: ${goList(names)}`,
  replacedParameters: (names: string[]) =>
    `Endpoint replaced the value of these parameters with the values captured from the endpoint's path: ${goList(names)}`,
  noHandler: (path: string) => `no handler for route ${goQuote(path)}. route entry not found.`,
  invalidUrlEscape: 'invalid URL escape',
  /** A write whose path ends in `/`, refused by Vault's core before the token check (`vault/request_handling.go`). */
  writeToDirectory: "cannot write to a path ending in '/'",
  patchContentType: (given: string) =>
    `PATCH requires Content-Type of application/merge-patch+json, provided ${given}`,

  // Shared by management, login and the token endpoints (docs/reference/cloud-auth.md §1.9, docs/reference/cloud-auth.md §3.9, docs/reference/cloud-auth.md §7)
  roleEntryNotFound: 'role entry not found',
  periodCapped: (period: number, max: number) =>
    `period of ${goQuote(formatShortDuration(period))} exceeded the effective max_ttl of ${goQuote(formatShortDuration(max))}; period value is capped accordingly`,
  ttlCapped: (ttl: number, max: number) =>
    `TTL of ${goQuote(formatShortDuration(ttl))} exceeded the effective max_ttl of ${goQuote(formatShortDuration(max))}; TTL value is capped accordingly`,

  // config/rotate-root (docs/reference/cloud-auth.md §3.2)
  rotateClientUnset: "can't update client config because it's unset",
  rotateAccessKeyUnset: "can't update access_key because it's unset",
  rotateSecretKeyUnset: "can't update secret_key because it's unset",
  rotateGetUser: (error: string) => `error calling GetUser: ${error}`,
  rotateNilUserName: 'nil UserName returned from GetUser',
  rotateCreateAccessKey: (error: string) => `error calling CreateAccessKey: ${error}`,
  rotateDeleteOldKey: (id: string, error: string) => `error deleting old access key ID ${id}: ${error}`,

  // config/identity (docs/reference/cloud-auth.md §3.3)
  aliasNotAllowed: (field: string, value: string, allowed: readonly string[]) =>
    `${field} of ${goQuote(value)} not in set of allowed values: ${goList([...allowed])}`,
  metadataWithDefault: (fields: string[]) =>
    `${goQuoteList(fields)} contains default - default can't be used in combination with other fields`,
  metadataUnavailable: (fields: string[], allowed: readonly string[]) =>
    `${goQuote(fields.join(', '))} contains an unavailable field, please select from ${goQuote(allowed.join(', '))}`,

  // config/certificate (docs/reference/cloud-auth.md §3.4)
  invalidCertificateType: (type: string) => `invalid certificate type ${goQuote(type)}`,
  missingPublicCert: 'missing aws_public_cert',
  invalidPublicCert: 'invalid aws_public_cert',
  notOnePemBlock: 'invalid certificate; should be one PEM block only',
  malformedCertificate: 'x509: malformed certificate',

  // config/sts (docs/reference/cloud-auth.md §3.5)
  missingStsRole: 'missing sts role',
  emptyStsRole: 'sts role cannot be empty',

  // role (docs/reference/cloud-auth.md §3.7, docs/reference/cloud-auth.md §1.8)
  missingRole: 'missing role',
  resolveTrueToFalse: 'changing resolve_aws_unique_ids from true to false is not allowed',
  unresolvableArn: (arn: string, error: string) => `unable to resolve ARN ${goQuote(arn)} to internal ID: ${error}`,
  unrecognizedAuthType: (type: string) => `unrecognized auth_type: ${type}`,
  changingAuthType: 'changing auth_type on a role is not allowed',
  inferredWithoutIam: "specified inferred_entity_type but didn't allow iam auth_type",
  invalidInferredType: (type: string) => `specified invalid inferred_entity_type: ${type}`,
  inferredWithoutRegion: 'specified inferred_entity_type but not inferred_aws_region',
  regionWithoutInferred: 'specified inferred_aws_region but not inferred_entity_type',
  ec2BindNotAllowed: (field: string) =>
    `specified ${field} but not specifying ec2 auth_type or inferring ec2_instance`,
  boundRegionNotAllowed: 'specified bound_region but not specifying ec2 auth_type',
  principalArnNotAllowed: 'specified bound_iam_principal_arn but not specifying iam auth_type',
  noBinds: 'at least one bound parameter should be specified on the role',
  ec2OnlyFlag: (field: string) => `specified ${field} when not using ec2 auth type`,
  bothReauthFlags: 'cannot specify both disallow_reauthentication=true and allow_instance_migration=true',
  maxTtlAboveMount: (given: number, mount: number) =>
    `Given max ttl of ${given} seconds greater than current mount/system default of ${mount} seconds; max ttl will be capped at login time`,
  ttlAboveMaxTtl: 'ttl should be shorter than max ttl',
  periodAboveMount: (period: number, mount: number) =>
    `period of ${goQuote(formatGoDuration(period))} is greater than the backend's maximum lease TTL of ${goQuote(formatGoDuration(mount))}`,
  roleTagOnIam: 'tried to enable role_tag when not using ec2 auth method',
  roleTagTooLong: 'length of role tag exceeds the EC2 key limit of 127 characters',

  // tokenutil (docs/reference/cloud-auth.md §1.8)
  badAddress: (address: string, reason: string) => `error parsing address ${goQuote(address)}: ${reason}`,
  negativeToken: (field: string) => `'${field}' cannot be negative`,
  invalidTokenType: (type: string) => `invalid 'token_type' value ${goQuote(type)}`,
  batchPeriodic: "'token_type' cannot be 'batch' or 'default_batch' when set to generate periodic tokens",
  batchNumUses:
    "'token_type' cannot be 'batch' or 'default_batch' when set to generate tokens with limited use count",
  tokenTtlAboveMax: "'token_ttl' cannot be greater than 'token_max_ttl'",

  // role/:role/tag (docs/reference/cloud-auth.md §3.8)
  tagRoleNotFound: (role: string) => `entry not found for role ${role}`,
  tagNotEnabled: 'tag creation is not enabled for this role',
  tagPoliciesNotSubset:
    'Policies on the tag are not a subset of the policies set on the role. Login will not be allowed with this tag unless the role policies are updated.',
  tagMigrationNotAllowed:
    'Role does not allow instance migration. Login will not be allowed with this tag unless the role value is updated.',
  tagBothFlags: 'cannot set both disallow_reauthentication and allow_instance_migration',
  tagMaxTtlAboveMount: (given: number, mount: number) =>
    `Given max TTL of ${given} is greater than the mount maximum of ${mount} seconds, and will be capped at login time.`,
  tagMaxTtlAboveRole: (given: number, role: number) =>
    `Given max TTL of ${given} is greater than the role maximum of ${role} seconds, and will be capped at login time.`,
  tagValueTooLong: "role tag 'value' exceeding the limit of 255 characters",

  // deny list and access list (docs/reference/cloud-auth.md §3.9, docs/reference/cloud-auth.md §3.10)
  missingRoleTag: 'missing role_tag',
  missingInstanceId: 'missing instance_id',

  // tidy (docs/reference/cloud-auth.md §8)
  tidyStarted:
    "Tidy operation successfully started. Any information from the operation will be printed to Vault's server logs.",

  // sys/auth
  pathInUse: (path: string) => `path is already in use at ${path}`,
  pluginNotFound: (type: string) => `plugin not found in the catalog: ${type}`,
  backendTypeMissing: 'backend type must be specified as a string',
  pluginNameMissing: 'plugin_name must be provided for plugin backend',
  noAuthEngine: (path: string) => `No auth engine at ${path}`,
  noSysView: (path: string) => `cannot fetch sysview for path ${goQuote(path)}`,
  tuneNoMount: (path: string) => `tune of path ${goQuote(path)} failed: no mount entry found`,
  tokenTypeOnTokenMount: "'token_type' cannot be set for 'token' or 'ns_token' auth mounts",
  tokenTypeInvalid: "invalid value for 'token_type'",
  listingVisibilityInvalid: (value: string) => `invalid listing_visibility ${value}`,
  tuneMaxBelowDefault: (max: number, def: number) => `backend max lease TTL of ${max} would be less than backend default lease TTL of ${def}`,
  enableConfigUnconvertible: 'unable to convert given auth config information',
  enableTtlUnparsable: (kind: 'default' | 'max', value: string, reason: string) => `unable to parse ${kind} TTL of ${value}: ${reason}`,
  enableDefaultOverMax: 'given default lease TTL greater than given max lease TTL',
  enableDefaultOverSystemMax: (max: number) => `given default lease TTL greater than system max lease TTL of ${max}`,
  versionNotSemantic: (version: string, reason: string) => `version ${goQuote(version)} is not a valid semantic version: ${reason}`,
  pluginVersionNotFound: (type: string, version: string) => `plugin not found in the catalog: ${type}, version=${version}`,
  authVersionOption: (type: string) => `auth method ${goQuote(type)} does not allow setting a version`,
  identityTokenKeyMissing: (key: string) => `key ${goQuote(key)} does not exist`,
  userLockoutNotAllowed: (type: string) => `tuning of user lockout configuration for auth type ${goQuote(type)} not allowed`,
} as const
