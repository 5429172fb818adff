/** `config/identity` (docs/reference/cloud-auth.md §3.3): alias choices and metadata selections; read always answers. */
import { copyRecord } from '../../../core/copy-record.ts'
import type { Fields } from '../fields/index.ts'
import type { Ec2Alias, IamAlias, IdentityConfig } from '../glossary.ts'
import { MESSAGES } from '../auth-messages.ts'
import type { Endpoint, OperationInput } from '../routing/endpoint.ts'
import { AuthRefusal } from '../auth-refusal.ts'
import { effectiveIdentityConfig } from '../state.ts'
import { lowerCaseSet } from '../policies.ts'

const IAM_ALIASES: readonly IamAlias[] = ['role_id', 'unique_id', 'full_arn', 'canonical_arn']
const EC2_ALIASES: readonly Ec2Alias[] = ['role_id', 'instance_id', 'image_id']

/** The metadata fields each flow can put on tokens; `default` stands for the first two. */
const IAM_METADATA_FIELDS = [
  'account_id',
  'auth_type',
  'canonical_arn',
  'client_arn',
  'client_user_id',
  'inferred_aws_region',
  'inferred_entity_id',
  'inferred_entity_type',
  // Vault's path_config_identity.go, iamAuthMetadataFields (Vault 1.21): the inferred instance's private DNS name
  'inferred_hostname',
] as const
const EC2_METADATA_FIELDS = ['account_id', 'auth_type', 'ami_id', 'instance_id', 'region'] as const
const DEFAULT_METADATA = ['account_id', 'auth_type'] as const

function alias<T extends string>(fields: Fields, name: string, allowed: readonly T[]): T | undefined {
  const value = fields.string(name)
  if (value === undefined) return undefined
  if (!(allowed as readonly string[]).includes(value)) throw new AuthRefusal(MESSAGES.aliasNotAllowed(name, value, allowed))
  return value as T
}

/**
 * A metadata selection: trimmed, lower-cased, de-duplicated, sorted. Exactly `default` is stored as
 * "unset" (null); `default` with anything else, or an unknown name, is refused.
 */
function metadata(fields: Fields, name: string, allowed: readonly string[]): string[] | null | undefined {
  const given = fields.list(name)
  if (given === undefined) return undefined
  const selected = lowerCaseSet(given)
  if (selected.length === 1 && selected[0] === 'default') return null
  if (selected.includes('default')) throw new AuthRefusal(MESSAGES.metadataWithDefault(selected))
  if (!selected.every((item) => allowed.includes(item))) {
    throw new AuthRefusal(MESSAGES.metadataUnavailable(selected, allowed))
  }
  return selected
}

function write({ state, fields }: OperationInput): undefined {
  const config: IdentityConfig = copyRecord(effectiveIdentityConfig(state))
  const iamAlias = alias(fields, 'iam_alias', IAM_ALIASES)
  if (iamAlias !== undefined) config.iam_alias = iamAlias
  const ec2Alias = alias(fields, 'ec2_alias', EC2_ALIASES)
  if (ec2Alias !== undefined) config.ec2_alias = ec2Alias
  const iamMetadata = metadata(fields, 'iam_metadata', IAM_METADATA_FIELDS)
  if (iamMetadata !== undefined) config.iam_metadata = iamMetadata
  const ec2Metadata = metadata(fields, 'ec2_metadata', EC2_METADATA_FIELDS)
  if (ec2Metadata !== undefined) config.ec2_metadata = ec2Metadata
  state.identityConfig = config
  return undefined
}

/** `config/identity`: read and update; no delete. */
export const configIdentity: Endpoint = {
  path: 'config/identity',
  fields: { iam_alias: 'string', iam_metadata: 'commaList', ec2_alias: 'string', ec2_metadata: 'commaList' },
  operations: {
    read: ({ state }) => {
      const config = effectiveIdentityConfig(state)
      return {
        data: {
          iam_alias: config.iam_alias,
          iam_metadata: [...(config.iam_metadata ?? DEFAULT_METADATA)],
          ec2_alias: config.ec2_alias,
          ec2_metadata: [...(config.ec2_metadata ?? DEFAULT_METADATA)],
        },
      }
    },
    update: write,
  },
}
