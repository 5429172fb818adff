/**
 * The auth service's OpenAPI components: its envelope and error body, and the field types of the auth
 * method's framework (docs/reference/cloud-auth.md §1.7).
 */
import { jsonContent, ref, type Schema } from '../../../core/openapi-schema.ts'
import type { FieldType } from '../fields/index.ts'

/** How each framework field type is accepted on the wire (weakly typed, as the service converts it). */
export const FIELD_TYPE_SCHEMAS: Record<FieldType, Schema> = {
  string: { type: ['string', 'number', 'boolean', 'null'], description: 'TypeString (scalars are converted)' },
  bool: { type: ['boolean', 'string', 'integer', 'null'], description: 'TypeBool (Go ParseBool strings accepted)' },
  int: { type: ['integer', 'string', 'boolean', 'null'], description: 'TypeInt' },
  duration: {
    type: ['integer', 'string', 'null'],
    description: 'TypeDurationSecond: seconds, or a Go duration such as "72h"',
  },
  commaList: {
    oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string', description: 'comma-separated' }, { type: 'null' }],
    description: 'TypeCommaStringSlice',
  },
  stringList: {
    oneOf: [{ type: 'array', items: { type: ['string', 'number', 'boolean'] } }, { type: ['string', 'number', 'boolean'], description: 'one item' }, { type: 'null' }],
    description: 'TypeStringSlice',
  },
  kvPairs: {
    oneOf: [{ type: 'object', additionalProperties: { type: ['string', 'number', 'boolean', 'null'] } }, { type: 'array', items: { type: 'string', description: 'key=value' } }, { type: 'string', description: 'key=value' }, { type: 'null' }],
    description: 'TypeKVPairs: an object, or "key=value" strings',
  },
  header: {
    oneOf: [{ type: 'object', additionalProperties: true }, { type: 'array', items: { type: 'string' } }, { type: 'string' }, { type: 'null' }],
    description: 'TypeHeader: an object of strings or string lists, its JSON text or base64, or "Key:Value" strings',
  },
}

/** Text of the published OpenAPI document, which stays byte for byte as released. */
const PUBLISHED_ENVELOPE_DESCRIPTION = 'The auth service response envelope (reference §1.5)'

export const AUTH_SCHEMAS: Record<string, Schema> = {
  AuthEnvelope: {
    type: 'object',
    // The envelope: docs/reference/cloud-auth.md §1.5. The description is published text, kept as released.
    description: PUBLISHED_ENVELOPE_DESCRIPTION,
    required: ['request_id', 'lease_id', 'renewable', 'lease_duration', 'data', 'wrap_info', 'warnings', 'auth', 'mount_type'],
    properties: {
      request_id: { type: 'string' },
      lease_id: { type: 'string' },
      renewable: { type: 'boolean' },
      lease_duration: { type: 'integer' },
      data: { type: ['object', 'null'], additionalProperties: true },
      wrap_info: { type: 'null' },
      warnings: { type: ['array', 'null'], items: { type: 'string' } },
      auth: { oneOf: [{ type: 'null' }, ref('AuthBlock')] },
      mount_type: { type: 'string' },
    },
  },
  AuthBlock: {
    type: 'object',
    properties: {
      client_token: { type: 'string' },
      accessor: { type: 'string' },
      policies: { type: 'array', items: { type: 'string' } },
      token_policies: { type: 'array', items: { type: 'string' } },
      // null: a token created without metadata (auth/token/create)
      metadata: { type: ['object', 'null'], additionalProperties: { type: 'string' } },
      lease_duration: { type: 'integer' },
      renewable: { type: 'boolean' },
      entity_id: { type: 'string' },
      token_type: { type: 'string' },
      orphan: { type: 'boolean' },
    },
    additionalProperties: true,
  },
  ListData: {
    type: 'object',
    properties: { data: { type: 'object', properties: { keys: { type: 'array', items: { type: 'string' } } } } },
  },
  AuthErrors: {
    type: 'object',
    description: 'Error body of the auth service: `{"errors":["…"]}`',
    required: ['errors'],
    properties: { errors: { type: 'array', items: { type: 'string' } } },
    additionalProperties: false,
  },
}

export const authErrorSchema = (description: string): Schema => ({ description, ...jsonContent(ref('AuthErrors')) })
