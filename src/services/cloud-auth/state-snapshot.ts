/**
 * The auth method's part of a snapshot: the mount table and, per mount, every stored record, the
 * single configuration objects and the per-mount caches whose loss would change later answers.
 */
import type { Emulator } from '../../core/emulator.ts'
import { type DomainCodec, shape, table, tables, type SavedOf } from '../../core/snapshot/index.ts'
import type { AssumedRoleCredentials } from '../fake-cloud/index.ts'
import type {
  AccessListEntry,
  CertificateEntry,
  ClientConfig,
  DenyListEntry,
  IdentityConfig,
  RoleEntry,
  StsEntry,
  TidyConfig,
} from './glossary.ts'
import { mountTable, type MountEntry, type MountTuning } from './mounts/mount-table.ts'
import { isNameSegment } from './routing/endpoint.ts'
import { parseRfc3339, TimeParseError } from '../../core/go/rfc3339.ts'
import { authDomain, authState, type AuthState, type FullArnEntry } from './state.ts'

const strings = shape.array(shape.string)

/** A name that is one path segment by the real service's rule, as the API takes it (never `../x`, never a NUL). */
const segmentName: shape.Shape<string> = (value, path) => {
  const name = shape.string(value, path)
  if (name === '' || !isNameSegment(name, 0, name.length)) {
    throw new shape.SnapshotError(`Failed to read the snapshot: ${path} must be a name of letters, digits, "_", "-" and "." that starts and ends with a letter or digit`)
  }
  return name
}

/** A time as the ec2 login reads it (RFC 3339): a stored one it cannot parse would fail every later login. */
const rfc3339: shape.Shape<string> = (value, path) => {
  const text = shape.string(value, path)
  try {
    parseRfc3339(text)
  } catch (error) {
    if (error instanceof TimeParseError) throw new shape.SnapshotError(`Failed to read the snapshot: ${path} must be an RFC 3339 time such as "2024-03-05T09:41:27Z"`)
    throw error
  }
  return text
}

const roleShape = shape.object<RoleEntry>({
  name: segmentName,
  role_id: shape.string,
  auth_type: shape.literal('ec2', 'iam'),
  bound_ami_id: strings,
  bound_account_id: strings,
  bound_region: strings,
  bound_vpc_id: strings,
  bound_subnet_id: strings,
  bound_iam_role_arn: strings,
  bound_iam_instance_profile_arn: strings,
  bound_iam_principal_arn: strings,
  bound_iam_principal_id: strings,
  bound_ec2_instance_id: shape.nullable(strings),
  inferred_entity_type: shape.string,
  inferred_aws_region: shape.string,
  resolve_aws_unique_ids: shape.boolean,
  role_tag: shape.string,
  allow_instance_migration: shape.boolean,
  disallow_reauthentication: shape.boolean,
  hmac_key: shape.string,
  token_ttl: shape.seconds,
  token_max_ttl: shape.seconds,
  token_period: shape.seconds,
  token_explicit_max_ttl: shape.seconds,
  token_policies: strings,
  token_bound_cidrs: strings,
  token_no_default_policy: shape.boolean,
  token_num_uses: shape.integerIn(0, Number.MAX_SAFE_INTEGER),
  token_type: shape.literal('default', 'service', 'batch'),
  ttl: shape.seconds,
  max_ttl: shape.seconds,
  period: shape.seconds,
  policies: strings,
})
const roleTable = table((state: AuthState) => state.roles, roleShape, (r) => r.name)

const clientShape = shape.object<ClientConfig>({
  access_key: shape.string,
  secret_key: shape.string,
  endpoint: shape.string,
  iam_endpoint: shape.string,
  sts_endpoint: shape.string,
  sts_region: shape.string,
  use_sts_region_from_client: shape.boolean,
  iam_server_id_header_value: shape.string,
  allowed_sts_header_values: shape.nullable(strings),
  max_retries: shape.integer,
  role_arn: shape.optional(shape.string),
  identity_token_audience: shape.optional(shape.string),
  identity_token_ttl: shape.optional(shape.seconds),
  rotation_schedule: shape.optional(shape.string),
  rotation_window: shape.optional(shape.seconds),
  rotation_period: shape.optional(shape.seconds),
  disable_automated_rotation: shape.optional(shape.boolean),
})

const identityShape = shape.object<IdentityConfig>({
  iam_alias: shape.literal('role_id', 'unique_id', 'full_arn', 'canonical_arn'),
  ec2_alias: shape.literal('role_id', 'instance_id', 'image_id'),
  iam_metadata: shape.nullable(strings),
  ec2_metadata: shape.nullable(strings),
})

const tidyShape = shape.object<TidyConfig>({ safety_buffer: shape.seconds, disable_periodic_tidy: shape.boolean })

const certificateShape = shape.object<CertificateEntry>({ name: segmentName, pem: shape.string, type: shape.literal('pkcs7', 'identity') })
const certificateTable = table((state: AuthState) => state.certificates, certificateShape, (c) => c.name)

const stsShape = shape.object<StsEntry>({ account_id: shape.string, sts_role: shape.string, external_id: shape.string })
const stsTable = table((state: AuthState) => state.stsRoles, stsShape, (s) => s.account_id)

const accessListShape = shape.object<AccessListEntry>({
  instance_id: shape.string,
  role: shape.string,
  client_nonce: shape.string,
  creation_time: shape.epochMs,
  last_updated_time: shape.epochMs,
  expiration_time: shape.epochMs,
  pending_time: rfc3339,
  disallow_reauthentication: shape.boolean,
})
const accessListTable = table((state: AuthState) => state.accessList, accessListShape, (e) => e.instance_id)

const denyListShape = shape.object<DenyListEntry>({ tag: shape.string, creation_time: shape.epochMs, expiration_time: shape.epochMs })
const denyListTable = table((state: AuthState) => state.denyList, denyListShape, (e) => e.tag)

const sessionShape = shape.object<AssumedRoleCredentials>({
  accessKeyId: shape.string,
  secretAccessKey: shape.string,
  sessionToken: shape.string,
  expiration: shape.string,
  assumedRoleArn: shape.string,
  assumedRoleId: shape.string,
})

const fullArnShape = shape.object<FullArnEntry>({ arn: shape.string, expiresMs: shape.epochMs })

const mountTables = tables({ roles: roleTable, certificates: certificateTable, sts: stsTable, access_list: accessListTable, deny_list: denyListTable })

interface SavedMount extends SavedOf<typeof mountTables> {
  client_config: ClientConfig | null
  identity_config: IdentityConfig | null
  tidy_access_list: TidyConfig | null
  tidy_deny_list: TidyConfig | null
  default_account_id: string | null
  next_periodic_tidy_ms: number | null
  assumed_sessions: Map<string, AssumedRoleCredentials>
  full_arns: Map<string, FullArnEntry>
}

const mountStateShape = shape.object<SavedMount>({
  ...mountTables.fields,
  client_config: shape.nullable(clientShape),
  identity_config: shape.nullable(identityShape),
  tidy_access_list: shape.nullable(tidyShape),
  tidy_deny_list: shape.nullable(tidyShape),
  default_account_id: shape.nullable(shape.string),
  next_periodic_tidy_ms: shape.nullable(shape.epochMs),
  assumed_sessions: shape.entries(sessionShape),
  full_arns: shape.entries(fullArnShape),
})

/** A mount's tuning but its description, as a snapshot holds it (every field optional). */
const tunedShapes = {
  default_lease_ttl: shape.optional(shape.integer),
  max_lease_ttl: shape.optional(shape.integer),
  token_type: shape.optional(shape.literal('default-service', 'default-batch', 'service', 'batch')),
  listing_visibility: shape.optional(shape.literal('unauth', 'hidden')),
  audit_non_hmac_request_keys: shape.optional(shape.array(shape.string)),
  audit_non_hmac_response_keys: shape.optional(shape.array(shape.string)),
  passthrough_request_headers: shape.optional(shape.array(shape.string)),
  allowed_response_headers: shape.optional(shape.array(shape.string)),
}

const mountShape = shape.object<MountEntry>({
  path: shape.string,
  accessor: shape.string,
  uuid: shape.string,
  description: shape.string,
  ...tunedShapes,
  options: shape.optional(shape.nullable(shape.dictionary(shape.string))),
  local: shape.optional(shape.boolean),
  seal_wrap: shape.optional(shape.boolean),
  external_entropy_access: shape.optional(shape.boolean),
})

interface SavedAuth {
  mounts: MountEntry[]
  /** The token mount's tuning; absent in snapshots from before it could be tuned. */
  token_mount: MountTuning | undefined
  state: Record<string, SavedMount>
}

const tuningShape = shape.object<MountTuning>({
  description: shape.optional(shape.string),
  ...tunedShapes,
})

const authShape = shape.object<SavedAuth>({
  mounts: shape.keyedRecords(mountShape, (m) => m.path),
  token_mount: shape.optional(tuningShape),
  state: shape.dictionary(mountStateShape),
})

function saveMount(state: AuthState) {
  const tidy = state.tidyConfig
  return {
    ...mountTables.save(state),
    client_config: state.clientConfig ?? null,
    identity_config: state.identityConfig ?? null,
    tidy_access_list: tidy.accessList ?? null,
    tidy_deny_list: tidy.denyList ?? null,
    default_account_id: state.defaultAccountId ?? null,
    next_periodic_tidy_ms: state.nextPeriodicTidyMs ?? null,
    assumed_sessions: [...state.assumedSessions],
    full_arns: [...state.fullArns],
  }
}

function loadMount(emulator: Emulator, mount: string, saved: SavedMount): void {
  const state = authState(emulator, mount)
  mountTables.restore(state, saved)
  state.clientConfig = saved.client_config ?? undefined
  state.identityConfig = saved.identity_config ?? undefined
  state.tidyConfig = {
    ...(saved.tidy_access_list && { accessList: saved.tidy_access_list }),
    ...(saved.tidy_deny_list && { denyList: saved.tidy_deny_list }),
  }
  // After clientConfig: setting it forgets the learned account.
  state.defaultAccountId = saved.default_account_id ?? undefined
  state.nextPeriodicTidyMs = saved.next_periodic_tidy_ms ?? undefined
  for (const [key, session] of saved.assumed_sessions) state.assumedSessions.set(key, session)
  for (const [key, entry] of saved.full_arns) state.fullArns.set(key, entry)
}

export const authSnapshotCodec: DomainCodec = {
  name: 'cloud-auth',
  save(emulator) {
    const table = mountTable(emulator)
    const mounts = table.entries()
    const state: Record<string, ReturnType<typeof saveMount>> = {}
    for (const { path } of mounts) {
      const existing = emulator.existingDomain<AuthState>(authDomain(path))
      if (existing) state[path] = saveMount(existing)
    }
    return { mounts, ...(Object.keys(table.tokenTuning).length > 0 && { token_mount: table.tokenTuning }), state }
  },
  *parse(value, path) {
    const saved = yield* shape.stepsOf(authShape)(value, path)
    const unmounted = Object.keys(saved.state).find((mount) => !saved.mounts.some((entry) => entry.path === mount))
    if (unmounted !== undefined) throw new shape.SnapshotError(`Failed to read the snapshot: ${path}.state.${unmounted} is not a mount`)
    return (emulator) => {
      mountTable(emulator).replaceAll(saved.mounts, saved.token_mount ?? {})
      for (const [mount, state] of Object.entries(saved.state)) loadMount(emulator, mount, state)
    }
  },
}
