/**
 * Where the auth method is mounted on one emulator: the profile's mounts from the start, plus those
 * enabled through `sys/auth`. It lives in the emulator's domain state, so `reset()` restores the start.
 */
import { createHash } from 'node:crypto'
import type { Emulator } from '../../../core/emulator.ts'
import { authState } from '../state.ts'
import { tokenStore } from '../tokens/token-store.ts'
import { authProfile } from '../auth-profile.ts'
import { MOUNT_DEFAULT_TTL, MOUNT_MAX_TTL } from '../limits.ts'

export interface MountEntry {
  /** Without slashes at either end, e.g. `cloud` or `team/aws`. */
  path: string
  accessor: string
  uuid: string
  description: string
  /** Tuned lease TTLs in seconds (`sys/auth/<path>/tune`); absent or 0: the system's. */
  default_lease_ttl?: number
  max_lease_ttl?: number
  /** The tuned token type of the mount's logins; absent: `default-service`. */
  token_type?: MountTokenType
  /** Tuned and shown, with no effect on what the auth method does: the UI's listing, audit and header lists. */
  listing_visibility?: 'unauth' | 'hidden'
  audit_non_hmac_request_keys?: string[]
  audit_non_hmac_response_keys?: string[]
  passthrough_request_headers?: string[]
  allowed_response_headers?: string[]
  /** The enable's `options` (absent: an empty map; null when the enable gave null, as Vault's CLI does). */
  options?: Record<string, string> | null
  /** The enable's flags, shown in the mount's entry; they change nothing the method does. */
  local?: boolean
  seal_wrap?: boolean
  external_entropy_access?: boolean
}

/** The tuned lists a mount shows when they are not empty. */
export const TUNED_LISTS = ['audit_non_hmac_request_keys', 'audit_non_hmac_response_keys', 'passthrough_request_headers', 'allowed_response_headers'] as const

/** A mount's token type, as `sys/auth/<path>/tune` sets it. */
export type MountTokenType = 'default-service' | 'default-batch' | 'service' | 'batch'

/** `token_type`'s values in an enable's config and a tuning: `""` is `default-service` (Vault's `handleEnableAuth`, `handleTuneWriteCommon`). */
export const TOKEN_TYPES: Readonly<Record<string, MountTokenType>> = { '': 'default-service', 'default-service': 'default-service', 'default-batch': 'default-batch', service: 'service', batch: 'batch' }

/** `listing_visibility`'s values (`""` is the default). */
export const LISTING_VISIBILITIES: ReadonlySet<string> = new Set(['', 'unauth', 'hidden'])

/** What tuning a mount changes (`sys/auth/<path>/tune`). */
export type MountTuning = Partial<Omit<MountEntry, 'path' | 'accessor' | 'uuid' | 'options' | 'local' | 'seal_wrap' | 'external_entropy_access'>>

/** What an enable sets besides the description: a first tuning, the options and the flags. */
export type MountSettings = Partial<Omit<MountEntry, 'path' | 'accessor' | 'uuid' | 'description'>>

/** A mount's lease TTLs as its system view gives them (seconds): the tuned ones, else the system's. */
export interface LeaseTtls {
  defaultTtl: number
  maxTtl: number
}

/** The token method's mount: always there, never the auth method's. */
export const TOKEN_MOUNT = 'token'

/** Ids for the profile's mounts, derived from the path so that creating the table draws no randomness. */
function builtInEntry(path: string): MountEntry {
  const hash = createHash('sha256').update(`doppel-mount:${path}`).digest('hex')
  const uuid = `${hash.slice(0, 8)}-${hash.slice(8, 12)}-4${hash.slice(13, 16)}-a${hash.slice(17, 20)}-${hash.slice(20, 32)}`
  return { path, accessor: `auth_aws_${hash.slice(32, 40)}`, uuid, description: '' }
}

/** The mounts of the auth method on one emulator, by path. */
export class MountTable {
  readonly #emulator: Emulator
  readonly #mounts = new Map<string, MountEntry>()
  /** The token mount's tuning: it is no mount of the auth method, but it can be tuned. */
  #tokenTuning: MountTuning = {}

  constructor(emulator: Emulator) {
    this.#emulator = emulator
    for (const path of authProfile(emulator.profile).mounts) this.#mounts.set(path, builtInEntry(path))
  }

  /** The mount at exactly `path`, if there is one. */
  get(path: string): MountEntry | undefined {
    return this.#mounts.get(path)
  }

  /** The mount a path under `auth/` belongs to (longest match) and the path relative to it. */
  resolve(pathUnderAuth: string): { mount: string; relative: string } | undefined {
    // Prefixes ending at each `/`, longest first, cut from the path itself (no split and re-join per request).
    let end = pathUnderAuth.length
    for (;;) {
      const mount = end === pathUnderAuth.length ? pathUnderAuth : pathUnderAuth.slice(0, end)
      if (this.#mounts.has(mount)) return { mount, relative: end === pathUnderAuth.length ? '' : pathUnderAuth.slice(end + 1) }
      if (end === 0) return undefined
      end = pathUnderAuth.lastIndexOf('/', end - 1)
      if (end === -1) return undefined
    }
  }

  /** The mount (an existing one, or the token mount) that `path` would clash with, if any. */
  conflict(path: string): string | undefined {
    const segments = path.split('/')
    for (let count = 1; count <= segments.length; count++) {
      const prefix = segments.slice(0, count).join('/')
      if (prefix === TOKEN_MOUNT || this.#mounts.has(prefix)) return prefix
    }
    for (const existing of this.#mounts.keys()) if (existing.startsWith(`${path}/`)) return existing
    return undefined
  }

  /** Adds a mount at `path` (the caller checked for conflicts). */
  enable(path: string, description: string, settings: MountSettings = {}): MountEntry {
    const random = this.#emulator.random
    const entry = { ...settings, path, accessor: `auth_aws_${random.hex(8)}`, uuid: random.uuid(), description }
    this.#mounts.set(path, entry)
    return entry
  }

  /** The mount holding `path` by its longest prefix (the token mount's paths too), as Vault's router finds it. */
  holding(path: string): string | undefined {
    if (path === TOKEN_MOUNT || path.startsWith(`${TOKEN_MOUNT}/`)) return TOKEN_MOUNT
    return this.resolve(path)?.mount
  }

  /** Changes the tunable settings of the mount at `path` (the token mount's too). */
  tune(path: string, changes: MountTuning): void {
    if (path === TOKEN_MOUNT) this.#tokenTuning = { ...this.#tokenTuning, ...changes }
    const entry = this.#mounts.get(path)
    if (entry) this.#mounts.set(path, { ...entry, ...changes })
  }

  /** The token mount's tuning. */
  get tokenTuning(): MountTuning {
    return this.#tokenTuning
  }

  /** The lease TTLs of the mount at `path` (the system's for a path with none). */
  leaseTtls(path: string): LeaseTtls {
    const tuned = path === TOKEN_MOUNT ? this.#tokenTuning : this.#mounts.get(path)
    return { defaultTtl: tuned?.default_lease_ttl || MOUNT_DEFAULT_TTL, maxTtl: tuned?.max_lease_ttl || MOUNT_MAX_TTL }
  }

  /**
   * Removes the mount and everything it held, and revokes the tokens its logins issued as Vault does, by the
   * prefix `auth/<path>/` (batch tokens have no lease and stay); a path that is not mounted is left alone.
   */
  disable(path: string): void {
    if (!this.#mounts.delete(path)) return
    authState(this.#emulator, path).clear()
    tokenStore(this.#emulator).removeUnderPrefix(`auth/${path}/`, 'revoked with its mount')
  }

  /** Replaces every mount and the token mount's tuning (a snapshot restore). */
  replaceAll(entries: readonly MountEntry[], tokenTuning: MountTuning): void {
    this.#mounts.clear()
    for (const entry of entries) this.#mounts.set(entry.path, { ...entry })
    this.#tokenTuning = { ...tokenTuning }
  }

  /** Every mount, sorted by path. */
  entries(): MountEntry[] {
    return [...this.#mounts.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  }
}

/** The mount table of an emulator. */
export function mountTable(emulator: Emulator): MountTable {
  return emulator.domain('cloud-auth:mounts', () => new MountTable(emulator))
}
