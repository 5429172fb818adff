/** `config/client` (docs/reference/cloud-auth.md §3.1): the provider credentials and endpoints, written without validation. */
import { copyRecord } from '../../../core/copy-record.ts'
import { canonicalHeaderKey } from '../fields/index.ts'
import type { ClientConfig } from '../glossary.ts'
import type { Endpoint, OperationInput } from '../routing/endpoint.ts'

const STRING_FIELDS = [
  'access_key',
  'secret_key',
  'endpoint',
  'iam_endpoint',
  'sts_endpoint',
  'sts_region',
  'iam_server_id_header_value',
] as const

const CREATE_DEFAULTS: ClientConfig = {
  access_key: '',
  secret_key: '',
  endpoint: '',
  iam_endpoint: '',
  sts_endpoint: '',
  sts_region: '',
  use_sts_region_from_client: false,
  iam_server_id_header_value: '',
  allowed_sts_header_values: null,
  max_retries: -1,
}

function write({ state, fields }: OperationInput): undefined {
  const config: ClientConfig = copyRecord(state.clientConfig ?? CREATE_DEFAULTS)
  for (const name of STRING_FIELDS) {
    const value = fields.string(name)
    if (value !== undefined) config[name] = value
  }
  const useClientRegion = fields.bool('use_sts_region_from_client')
  if (useClientRegion !== undefined) config.use_sts_region_from_client = useClientRegion
  const allowed = fields.list('allowed_sts_header_values')
  // An empty list leaves the Go slice nil, so it reads back as null like a never-set value.
  if (allowed !== undefined) config.allowed_sts_header_values = allowed.length === 0 ? null : allowed.map(canonicalHeaderKey)
  const maxRetries = fields.int('max_retries')
  if (maxRetries !== undefined) config.max_retries = maxRetries
  state.clientConfig = config
  return undefined
}

/** `config/client`: read, create/update, delete. */
export const configClient: Endpoint = {
  path: 'config/client',
  fields: {
    ...Object.fromEntries(STRING_FIELDS.map((name) => [name, 'string' as const])),
    use_sts_region_from_client: 'bool',
    allowed_sts_header_values: 'commaList',
    max_retries: 'int',
  },
  exists: (state) => state.clientConfig !== undefined,
  operations: {
    read: ({ state }) => {
      const config = state.clientConfig
      if (!config) return undefined
      return {
        data: {
          access_key: config.access_key,
          endpoint: config.endpoint,
          iam_endpoint: config.iam_endpoint,
          sts_endpoint: config.sts_endpoint,
          sts_region: config.sts_region,
          use_sts_region_from_client: config.use_sts_region_from_client,
          iam_server_id_header_value: config.iam_server_id_header_value,
          max_retries: config.max_retries,
          allowed_sts_header_values: config.allowed_sts_header_values,
        },
      }
    },
    create: write,
    update: write,
    delete: ({ state }) => {
      state.clientConfig = undefined
      return undefined
    },
  },
}
