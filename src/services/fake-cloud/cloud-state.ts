import type { KeyObject } from 'node:crypto'
import type { Server } from 'node:http'
import type { Emulator } from '../../core/emulator.ts'
import { ExpiryQueue } from '../../core/expiry-queue.ts'
import type { KeyedCollection } from '../../core/store.ts'
import type { HttpTokens, Instance, InstanceMetadataTags } from './glossary.ts'
import type { PolicyDocument } from './iam/policy-document.ts'
import { createIds, type Ids } from './ids.ts'
import { sweepExpiredSessions } from './sts/session-tokens.ts'

/** An instance as stored: the public shape plus what DescribeInstances and the IMDS also serve. */
export interface InstanceRecord extends Instance {
  instance_profile_id: string | null
  http_tokens: HttpTokens
  instance_metadata_tags: InstanceMetadataTags
  reservation_id: string
  security_group_id: string
  mac: string
  network_interface_id: string
  /** The current IMDS role session (an `ASIA` key id), rotated before it expires. */
  imds_key_id: string | null
  public_ip: string | null
  public_dns_name: string | null
  key_name: string | null
  /** Base64 of the key pair's 32-byte ED25519 private seed (the public key is derived when served). */
  key_pair_seed: string | null
}

export interface PrincipalRecord {
  type: 'user' | 'role'
  name: string
  account_id: string
  path: string
  arn: string
  unique_id: string
  create_date: string
  /** Roles only: the longest session AssumeRole may give. */
  max_session_duration: number | null
  /** Identity policies; absent or null: allowed everything (the default). */
  policies?: PolicyDocument[] | null
  /** Roles only: who may assume it; absent or null: anyone. */
  trust_policy?: PolicyDocument | null
}

export interface InstanceProfileRecord {
  name: string
  account_id: string
  path: string
  arn: string
  unique_id: string
  create_date: string
  role_arn: string | null
}

export interface AccessKeyRecord {
  access_key_id: string
  secret_access_key: string
  account_id: string
  /** The user that owns a long-term key, or the role a session assumed. */
  owner_arn: string
  kind: 'long-term' | 'session'
  status: 'Active' | 'Inactive'
  create_date: string
  session_token: string | null
  session_name: string | null
  expires_ms: number | null
  /** Sessions: issued by role chaining (caps DurationSeconds at 3600). */
  chained: boolean
  /** Keys made by CreateAccessKey while a propagation delay is set: unusable before this time. */
  usable_from_ms?: number
}

export interface AccountRecord {
  account_id: string
}

/** Signed identity documents of one instance, valid while its document text stays the same. */
export interface SignedDocuments {
  text: string
  values: Map<string, string>
}

export interface CloudState {
  emulator: Emulator
  ids: Ids
  instances: KeyedCollection<InstanceRecord>
  principals: KeyedCollection<PrincipalRecord>
  profiles: KeyedCollection<InstanceProfileRecord>
  keys: KeyedCollection<AccessKeyRecord>
  accounts: KeyedCollection<AccountRecord>
  /** The instance 169.254.169.254 answers for; else the last one created. */
  selectedInstance: string | undefined
  lastInstance: string | undefined
  /** SigV4 signing keys by (secret, date, region, service). */
  signingKeys: Map<string, KeyObject>
  documents: Map<string, SignedDocuments>
  /** HMAC key of IMDSv2 tokens, drawn on first use. */
  imdsSecret: Buffer | undefined
  /** Session keys by expiry: expired sessions are tidied as the clock moves and as new ones are issued. */
  sessionExpiries: ExpiryQueue
  /** Called by the emulator as its clock moves (ExpiringDomain). */
  sweepExpired(nowMs: number): void
  /** IMDS listeners by instance id, with the endpoint they answer at once listening. */
  listeners: Map<string, { server: Server; endpoint: Promise<string> }>
  /** Whether a reset hook closing this state's listeners is registered. */
  closeListenersOnReset: boolean
  /** Seconds a key made by CreateAccessKey stays unusable (eventual consistency, opt-in; 0 = off). */
  keyPropagationSeconds: number
  /** Origins of this emulator's own fake-cloud listeners (`registerCloudListener`). */
  ownOrigins: Set<string>
  /** While set, inserts are recorded so a failed fixture load can be undone. */
  recording: (() => void)[] | undefined
}

/** Index values: names are unique per account and type, case-insensitively, as in IAM. */
export const principalNameKey = (account: string, type: 'user' | 'role', name: string): string =>
  `${account}|${type}|${name.toLowerCase()}`
export const profileNameKey = (account: string, name: string): string => `${account}|${name.toLowerCase()}`
export const placeKey = (account: string, region: string): string => `${account}|${region}`

export const CLOUD_DOMAIN = 'fake-cloud'

/** The fake cloud's state in this emulator instance. */
export function cloudState(emulator: Emulator): CloudState {
  return emulator.domain(CLOUD_DOMAIN, createCloudState)
}

function createCloudState(emulator: Emulator): CloudState {
  const { store } = emulator
  const state: CloudState = {
    emulator,
    ids: createIds(emulator.random),
    instances: store.collection<InstanceRecord>('fake-cloud.instances', {
      key: (r) => r.instance_id,
      indexes: { place: (r) => placeKey(r.account_id, r.region) },
    }),
    principals: store.collection<PrincipalRecord>('fake-cloud.principals', {
      key: (r) => r.arn,
      indexes: {
        name: (r) => principalNameKey(r.account_id, r.type, r.name),
        anyName: (r) => r.name.toLowerCase(),
        uniqueId: (r) => r.unique_id,
      },
    }),
    profiles: store.collection<InstanceProfileRecord>('fake-cloud.instance-profiles', {
      key: (r) => r.arn,
      indexes: { name: (r) => profileNameKey(r.account_id, r.name) },
    }),
    keys: store.collection<AccessKeyRecord>('fake-cloud.access-keys', {
      key: (r) => r.access_key_id,
      indexes: { owner: (r) => r.owner_arn },
    }),
    accounts: store.collection<AccountRecord>('fake-cloud.accounts', { key: (r) => r.account_id }),
    selectedInstance: undefined,
    lastInstance: undefined,
    signingKeys: new Map(),
    documents: new Map(),
    imdsSecret: undefined,
    sessionExpiries: new ExpiryQueue(),
    sweepExpired: (nowMs) => sweepExpiredSessions(state, nowMs),
    listeners: new Map(),
    closeListenersOnReset: false,
    keyPropagationSeconds: 0,
    ownOrigins: new Set(),
    recording: undefined,
  }
  return state
}

/** Inserts a new record, remembering it while a fixture load is being recorded. */
export function insert<T>(state: CloudState, collection: KeyedCollection<T>, record: T, key: string): T {
  collection.set(record)
  state.recording?.push(() => collection.delete(key))
  return record
}

