/**
 * `config/client` (docs/reference/cloud-auth.md §3.1): the provider credentials and endpoints, written
 * without validation; with the vault profile also newer Vault's fields, checked as Vault 1.21's community
 * edition checks them.
 */
import { copyRecord } from '../../../core/copy-record.ts'
import { authProfile } from '../auth-profile.ts'
import { AuthRefusal } from '../auth-refusal.ts'
import { canonicalHeaderKey, type Fields, type FieldSchema } from '../fields/index.ts'
import type { ClientConfig } from '../glossary.ts'
import type { Endpoint, Operation, OperationInput } from '../routing/endpoint.ts'
import { rotationScheduleError } from './rotation-schedule.ts'

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

function write({ context, state, fields, operation }: OperationInput): undefined {
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
  if (authProfile(context.profile).newerClientConfig) writeNewer(config, fields, operation)
  // Stored only on create, when a setting changed, or with max_retries (docs/reference/cloud-auth.md §3.1):
  // newer fields written alone are checked, answered 204, and not kept, as Vault 1.21 does.
  if (operation === 'create' || maxRetries !== undefined || settingsChanged(state.clientConfig!, config)) state.clientConfig = config
  return undefined
}

/** Whether a write changed what Vault compares before storing: the strings, the region flag, the header list (as a set) and `role_arn`. */
function settingsChanged(before: ClientConfig, after: ClientConfig): boolean {
  const sameList = (a: readonly string[] | null, b: readonly string[] | null) => JSON.stringify([...(a ?? [])].sort()) === JSON.stringify([...(b ?? [])].sort())
  return (
    STRING_FIELDS.some((name) => before[name] !== after[name]) ||
    before.use_sts_region_from_client !== after.use_sts_region_from_client ||
    !sameList(before.allowed_sts_header_values, after.allowed_sts_header_values) ||
    (before.role_arn ?? '') !== (after.role_arn ?? '')
  )
}

const BASE_FIELDS: FieldSchema = {
  ...Object.fromEntries(STRING_FIELDS.map((name) => [name, 'string' as const])),
  use_sts_region_from_client: 'bool',
  allowed_sts_header_values: 'commaList',
  max_retries: 'int',
}

/** Newer Vault's fields (`AuthProfile.newerClientConfig`): `pluginidentityutil` and `automatedrotationutil` of the SDK. */
const NEWER_FIELDS: FieldSchema = {
  ...BASE_FIELDS,
  role_arn: 'string',
  identity_token_audience: 'string',
  identity_token_ttl: 'duration',
  rotation_schedule: 'string',
  rotation_window: 'duration',
  rotation_period: 'duration',
  disable_automated_rotation: 'bool',
}

/** Why the community edition refuses what Enterprise would do. */
const ENTERPRISE_ONLY = { rule: "Vault's community edition", hint: 'Vault Enterprise federates and rotates; the vault profile answers as the community edition does' }

/**
 * Newer Vault's fields, in the order Vault 1.21 reads and checks them (`path_config_client.go`): each present
 * one replaces the stored value, then the rotation fields' own checks, the workload identity checks, and
 * what the community edition cannot do: mint an identity token, or register a rotation job.
 */
function writeNewer(config: ClientConfig, fields: Fields, operation: Operation): void {
  const refuse = (message: string, why: { rule: string; hint?: string } = { rule: 'config/client fields' }) => new AuthRefusal(message, 400).explain({ ...why, seen: message })
  const roleArn = fields.string('role_arn')
  if (roleArn !== undefined || operation === 'create') config.role_arn = roleArn ?? ''
  const ttl = fields.duration('identity_token_ttl')
  if (ttl !== undefined) config.identity_token_ttl = ttl
  const audience = fields.string('identity_token_audience')
  if (audience !== undefined) config.identity_token_audience = audience

  const schedule = fields.string('rotation_schedule')
  const window = fields.duration('rotation_window')
  const period = fields.duration('rotation_period')
  const withPeriod = period !== undefined && period !== 0
  if (schedule !== undefined) {
    if (withPeriod && schedule !== '') {
      throw refuse('mutually exclusive fields rotation_schedule and rotation_period were both specified; only one of them can be provided')
    }
    config.rotation_schedule = schedule
    const error = schedule === '' ? undefined : rotationScheduleError(schedule)
    if (error === 'panics') {
      throw refuse('failed to parse provided rotation_schedule: a time zone prefix needs a space after it', {
        rule: 'rotation_schedule',
        hint: "Vault's parser panics on it and the connection closes unanswered; doppel answers 400 instead",
      })
    }
    if (error !== undefined) throw refuse(`failed to parse provided rotation_schedule: ${error}`)
  }
  if (window !== undefined) {
    if (withPeriod && window !== 0) throw refuse('rotation_window does not apply to period')
    config.rotation_window = window
  }
  if (period !== undefined) config.rotation_period = period
  if (window !== undefined && window !== 0 && schedule === undefined) throw refuse('cannot use rotation_window without rotation_schedule')
  const disable = fields.bool('disable_automated_rotation')
  if (disable !== undefined) config.disable_automated_rotation = disable

  const audienceSet = (config.identity_token_audience ?? '') !== ''
  if (audienceSet && config.access_key !== '') throw refuse("only one of 'access_key' or 'identity_token_audience' can be set")
  if (audienceSet && (config.role_arn ?? '') === '') throw refuse('role_arn must be set when identity_token_audience is set')
  if (audienceSet) throw refuse('plugin workload identity not supported in Vault community edition', ENTERPRISE_ONLY)
  // A write without rotation values deregisters (which the community edition lets pass); one with them registers.
  const registers = !config.disable_automated_rotation && ((config.rotation_schedule ?? '') !== '' || (config.rotation_period ?? 0) !== 0)
  if (registers) throw refuse('error registering rotation job: rotation manager capabilities not supported in Vault community edition', ENTERPRISE_ONLY)
}

/** What Vault 1.21 reads back of newer fields: every one, zero where never written (`Populate…Data`). */
function newerData(config: ClientConfig): Record<string, unknown> {
  return {
    role_arn: config.role_arn ?? '',
    identity_token_audience: config.identity_token_audience ?? '',
    identity_token_ttl: config.identity_token_ttl ?? 0,
    rotation_schedule: config.rotation_schedule ?? '',
    rotation_window: config.rotation_window ?? 0,
    rotation_period: config.rotation_period ?? 0,
    disable_automated_rotation: config.disable_automated_rotation ?? false,
  }
}

/** `config/client`: read, create/update, delete. */
export const configClient: Endpoint = {
  path: 'config/client',
  fields: BASE_FIELDS,
  fieldsFor: (profile) => (profile.newerClientConfig ? NEWER_FIELDS : undefined),
  exists: (state) => state.clientConfig !== undefined,
  operations: {
    read: ({ context, state }) => {
      const config = state.clientConfig
      if (!config) return undefined
      return {
        data: {
          ...(authProfile(context.profile).newerClientConfig && newerData(config)),
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
