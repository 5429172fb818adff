/**
 * The auth method's persisted model (docs/reference/cloud-auth.md §2, docs/reference/cloud-auth.md §3). Field names are the real service's storage names,
 * so code, fixtures and the reference read alike. Durations are integer seconds, times epoch milliseconds.
 */

export type AuthType = 'ec2' | 'iam'
export type TokenType = 'default' | 'service' | 'batch'

export interface RoleEntry {
  /** The lower-cased role name: the storage key. */
  name: string
  role_id: string
  auth_type: AuthType
  bound_ami_id: string[]
  bound_account_id: string[]
  bound_region: string[]
  bound_vpc_id: string[]
  bound_subnet_id: string[]
  bound_iam_role_arn: string[]
  bound_iam_instance_profile_arn: string[]
  bound_iam_principal_arn: string[]
  /** The resolved unique ids of the non-wildcard principal ARNs, in ARN order. */
  bound_iam_principal_id: string[]
  /** `null` until first set: the one bound list the read does not normalise to `[]`. */
  bound_ec2_instance_id: string[] | null
  inferred_entity_type: string
  inferred_aws_region: string
  resolve_aws_unique_ids: boolean
  role_tag: string
  allow_instance_migration: boolean
  disallow_reauthentication: boolean
  /** Keys the role-tag HMAC; generated on first write, never returned. */
  hmac_key: string
  token_ttl: number
  token_max_ttl: number
  token_period: number
  token_explicit_max_ttl: number
  /** As given: not lower-cased, de-duplicated or sorted. */
  token_policies: string[]
  /** Addresses and CIDR blocks in their read form (`10.0.0.1`, `10.0.0.0/8`, `2001:db8::/32`). */
  token_bound_cidrs: string[]
  token_no_default_policy: boolean
  token_num_uses: number
  token_type: TokenType
  /** Deprecated names, non-zero only when last set through them. */
  ttl: number
  max_ttl: number
  period: number
  policies: string[]
}

export interface ClientConfig {
  access_key: string
  secret_key: string
  endpoint: string
  iam_endpoint: string
  sts_endpoint: string
  sts_region: string
  use_sts_region_from_client: boolean
  iam_server_id_header_value: string
  /** Canonical header names (`X-Amz-Foo`); `null` when never set. */
  allowed_sts_header_values: string[] | null
  max_retries: number
  /** Newer Vault's fields (the vault profile, `AuthProfile.newerClientConfig`); absent reads as zero. */
  role_arn?: string
  identity_token_audience?: string
  /** Seconds. */
  identity_token_ttl?: number
  rotation_schedule?: string
  /** Seconds. */
  rotation_window?: number
  /** Seconds. */
  rotation_period?: number
  disable_automated_rotation?: boolean
}

export type IamAlias = 'role_id' | 'unique_id' | 'full_arn' | 'canonical_arn'
export type Ec2Alias = 'role_id' | 'instance_id' | 'image_id'

export interface IdentityConfig {
  iam_alias: IamAlias
  ec2_alias: Ec2Alias
  /** `null` means the default selection (`account_id`, `auth_type`); `[]` means none. */
  iam_metadata: string[] | null
  ec2_metadata: string[] | null
}

export type CertificateType = 'pkcs7' | 'identity'

export interface CertificateEntry {
  name: string
  /** PEM text exactly as stored (decoded from base64 when given so). */
  pem: string
  type: CertificateType
}

export interface StsEntry {
  account_id: string
  sts_role: string
  external_id: string
}

export interface TidyConfig {
  /** Seconds. */
  safety_buffer: number
  disable_periodic_tidy: boolean
}

export interface TidyConfigs {
  accessList?: TidyConfig
  denyList?: TidyConfig
}

export interface AccessListEntry {
  instance_id: string
  /** The role name as sent at first login. */
  role: string
  client_nonce: string
  creation_time: number
  last_updated_time: number
  expiration_time: number
  /** Copied verbatim from the identity document's `pendingTime`. */
  pending_time: string
  disallow_reauthentication: boolean
}

export interface DenyListEntry {
  /** The role tag value as plain text (never base64). */
  tag: string
  creation_time: number
  expiration_time: number
}
