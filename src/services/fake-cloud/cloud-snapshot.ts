/**
 * The fake cloud's part of a snapshot: instances, principals, instance profiles, access keys (with their
 * secrets) and accounts; which instance the metadata address answers for; the IMDSv2 token key; and the
 * signed identity documents already served, so they are served again byte for byte.
 *
 * @note Not saved: SigV4 signing keys (derived from the secrets on demand) and IMDS listeners (sockets,
 * started again on request).
 */
import { type DomainCodec, shape, table, tables, type SavedOf } from '../../core/snapshot/index.ts'
import {
  CLOUD_DOMAIN,
  cloudState,
  type AccessKeyRecord,
  type AccountRecord,
  type CloudState,
  type InstanceProfileRecord,
  type InstanceRecord,
  type PrincipalRecord,
  type SignedDocuments,
} from './cloud-state.ts'
import type { IdentityFormat } from './glossary.ts'
import { IDENTITY_FORMATS } from './identity/issue-document.ts'
import { trackSession } from './sts/session-tokens.ts'
import { MAX_KEY_PROPAGATION_SECONDS } from './iam/key-propagation.ts'
import { policyDocumentProblem, policyListProblem, type PolicyDocument } from './iam/policy-document.ts'
import { isRfc3339Seconds } from './inventory-input.ts'
import { checkParameters, PARAMETER_RULES, type ParameterRule } from './parameter-rules.ts'
import { IMDS_SECRET_BYTES } from './imds/imds-tokens.ts'

const nullableString = shape.nullable(shape.string)
/** Fields added after version 1 was first written: absent in an older snapshot, read as null. */
const laterString: shape.Shape<string | null> = (value, path) => (value === undefined ? null : nullableString(value, path))
/** A key pair's private seed as the code draws it: base64 of 32 bytes. */
const laterSeed: shape.Shape<string | null> = (value, path) => {
  const seed = laterString(value, path)
  if (seed !== null && shape.base64Bytes(seed, path).length !== 32) throw new shape.SnapshotError(`Failed to read the snapshot: ${path} must be base64 of 32 bytes`)
  return seed
}

/** A time as the fake cloud writes it (`isoSeconds`): a date the API would print, never one it cannot parse. */
const isoDate: shape.Shape<string> = (value, path) => {
  const text = shape.string(value, path)
  if (!isRfc3339Seconds(text)) throw new shape.SnapshotError(`Failed to read the snapshot: ${path} must be a UTC time such as "2024-03-05T09:41:27Z"`)
  return text
}

/** A name checked by the IAM API's own rule for it (a role name `../x` or with a NUL is refused there, so here). */
function iamName(rules: ParameterRule[]): shape.Shape<string> {
  return (value, path) => {
    const name = shape.string(value, path)
    try {
      checkParameters(rules, { [rules[0]!.field]: name })
    } catch (error) {
      throw new shape.SnapshotError(`Failed to read the snapshot: ${path}: ${(error as Error).message}`)
    }
    return name
  }
}
const roleName = iamName(PARAMETER_RULES.roleName)
/** A principal's name, by the rule for its type (a user's may be longer than a role's). */
const principalNames = { user: iamName(PARAMETER_RULES.userName), role: roleName }

/** The IMDSv2 token key: exactly as many bytes as the fake cloud draws for it. */
const imdsSecret: shape.Shape<Buffer> = (value, path) => {
  const bytes = shape.base64Bytes(value, path)
  if (bytes.length !== IMDS_SECRET_BYTES) throw new shape.SnapshotError(`Failed to read the snapshot: ${path} must be base64 of ${IMDS_SECRET_BYTES} bytes`)
  return bytes
}

/** Tag access in IMDS, added after version 1: absent in an older snapshot, read as EC2's default. */
const laterTagAccess: shape.Shape<'enabled' | 'disabled'> = (value, path) => (value === undefined ? 'disabled' : shape.literal('enabled', 'disabled')(value, path))

/** A policy document (or list), checked by the same rules as at creation. */
function policyShape<T>(problem: (value: unknown) => string | undefined): shape.Shape<T | null | undefined> {
  return (value, path) => {
    if (value === undefined || value === null) return value
    const why = problem(value)
    if (why !== undefined) throw new shape.SnapshotError(`Failed to read the snapshot: ${path}: ${why}`)
    return value as T
  }
}

const instanceShape = shape.object<InstanceRecord>({
  instance_id: shape.string,
  account_id: shape.string,
  region: shape.string,
  availability_zone: shape.string,
  ami_id: shape.string,
  vpc_id: shape.string,
  subnet_id: shape.string,
  instance_type: shape.string,
  private_ip: shape.string,
  iam_role_name: shape.nullable(roleName),
  instance_profile_arn: nullableString,
  iam_role_arn: nullableString,
  state: shape.literal('pending', 'running', 'stopping', 'stopped', 'shutting-down', 'terminated'),
  tags: shape.dictionary(shape.string),
  pending_time: isoDate,
  instance_profile_id: nullableString,
  http_tokens: shape.literal('optional', 'required'),
  instance_metadata_tags: laterTagAccess,
  reservation_id: shape.string,
  security_group_id: shape.string,
  mac: shape.string,
  network_interface_id: shape.string,
  imds_key_id: nullableString,
  public_ip: laterString,
  public_dns_name: laterString,
  key_name: laterString,
  key_pair_seed: laterSeed,
})
const instanceTable = table((state: CloudState) => state.instances, instanceShape, (r) => r.instance_id)

const principalShape = shape.object<PrincipalRecord>({
  type: shape.literal('user', 'role'),
  name: shape.string,
  account_id: shape.string,
  path: shape.string,
  arn: shape.string,
  unique_id: shape.string,
  create_date: isoDate,
  max_session_duration: shape.nullable(shape.seconds),
  policies: policyShape<PolicyDocument[]>(policyListProblem),
  trust_policy: policyShape<PolicyDocument>((value) => policyDocumentProblem(value, true)),
})
const principalTable = table((state: CloudState) => state.principals, principalShape, (r) => r.arn)

const profileShape = shape.object<InstanceProfileRecord>({
  name: iamName(PARAMETER_RULES.instanceProfileName),
  account_id: shape.string,
  path: shape.string,
  arn: shape.string,
  unique_id: shape.string,
  create_date: isoDate,
  role_arn: nullableString,
})
const profileTable = table((state: CloudState) => state.profiles, profileShape, (r) => r.arn)

const keyShape = shape.object<AccessKeyRecord>({
  access_key_id: shape.string,
  secret_access_key: shape.string,
  account_id: shape.string,
  owner_arn: shape.string,
  kind: shape.literal('long-term', 'session'),
  status: shape.literal('Active', 'Inactive'),
  create_date: isoDate,
  session_token: nullableString,
  session_name: nullableString,
  expires_ms: shape.nullable(shape.epochMs),
  chained: shape.boolean,
  usable_from_ms: shape.optional(shape.epochMs),
})
const keyTable = table((state: CloudState) => state.keys, keyShape, (r) => r.access_key_id)

const accountShape = shape.object<AccountRecord>({ account_id: shape.string })
const accountTable = table((state: CloudState) => state.accounts, accountShape, (r) => r.account_id)

const documentsShape = shape.object<SignedDocuments>({
  text: shape.string,
  values: shape.entries(shape.string),
})

const cloudTables = tables({ instances: instanceTable, principals: principalTable, profiles: profileTable, keys: keyTable, accounts: accountTable })

interface SavedCloud extends SavedOf<typeof cloudTables> {
  selected_instance: string | null
  last_instance: string | null
  imds_secret: Buffer | null
  documents: Map<string, SignedDocuments>
  key_propagation_seconds: number
}

const cloudShape = shape.object<SavedCloud>({
  ...cloudTables.fields,
  selected_instance: nullableString,
  last_instance: nullableString,
  imds_secret: shape.nullable(imdsSecret),
  documents: shape.entries(documentsShape),
  key_propagation_seconds: shape.integer,
})

function saveCloud(state: CloudState) {
  return {
    ...cloudTables.save(state),
    selected_instance: state.selectedInstance ?? null,
    last_instance: state.lastInstance ?? null,
    imds_secret: state.imdsSecret?.toString('base64') ?? null,
    documents: [...state.documents].map(([id, { text, values }]) => [id, { text, values: [...values] }]),
    key_propagation_seconds: state.keyPropagationSeconds,
  }
}

export const cloudSnapshotCodec: DomainCodec = {
  name: 'fake-cloud',
  save(emulator) {
    const state = emulator.existingDomain<CloudState>(CLOUD_DOMAIN)
    return state && saveCloud(state)
  },
  *parse(value, path) {
    const saved = yield* shape.stepsOf(cloudShape)(value, path)
    saved.principals.forEach((record, index) => principalNames[record.type](record.name, `${path}.principals[${index}].name`))
    // Deleting a principal deletes its keys: a key always has its owner.
    shape.checkReferences(saved.keys, `${path}.keys`, 'owner_arn', new Set(saved.principals.map((r) => r.arn)), 'principal')
    const instances = new Set(saved.instances.map((r) => r.instance_id))
    for (const [name, id] of [['selected_instance', saved.selected_instance], ['last_instance', saved.last_instance]] as const) {
      if (id !== null && !instances.has(id)) throw new shape.SnapshotError(`Failed to read the snapshot: ${path}.${name} is not a known instance`)
    }
    if (saved.key_propagation_seconds < 0 || saved.key_propagation_seconds > MAX_KEY_PROPAGATION_SECONDS) {
      throw new shape.SnapshotError(`Failed to read the snapshot: ${path}.key_propagation_seconds must be from 0 to ${MAX_KEY_PROPAGATION_SECONDS}`)
    }
    for (const [id, { values }] of saved.documents) {
      const format = [...values.keys()].find((key) => !IDENTITY_FORMATS.includes(key as IdentityFormat))
      if (format !== undefined) throw new shape.SnapshotError(`Failed to read the snapshot: ${path}.documents.${id} has an unknown format "${format}"`)
    }
    return (emulator) => {
      const state = cloudState(emulator)
      cloudTables.restore(state, saved)
      // A restored session key is tracked again so the tidy removes it once it expires.
      for (const record of saved.keys) trackSession(state, record)
      state.selectedInstance = saved.selected_instance ?? undefined
      state.lastInstance = saved.last_instance ?? undefined
      state.imdsSecret = saved.imds_secret ?? undefined
      for (const [id, documents] of saved.documents) state.documents.set(id, documents)
      state.keyPropagationSeconds = saved.key_propagation_seconds
    }
  },
}
