import type { Emulator } from '../../core/emulator.ts'
import type { WrittenJson } from '../../core/go/go-json-text.ts'
import type { KeyedCollection } from '../../core/store.ts'
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
  TidyConfigs,
} from './glossary.ts'

export type * from './glossary.ts'

/** The single objects of a mount, kept in one keyed collection so store snapshots include them. */
type Singleton =
  | { key: 'config/client'; value: ClientConfig }
  | { key: 'config/identity'; value: IdentityConfig }
  | { key: 'config/tidy/identity-accesslist'; value: TidyConfig }
  | { key: 'config/tidy/roletag-denylist'; value: TidyConfig }

type SingletonValue<K extends Singleton['key']> = Extract<Singleton, { key: K }>['value']

/** A login's unique id → full ARN lookup, remembered until `expiresMs` (emulator clock). */
export interface FullArnEntry {
  arn: string
  expiresMs: number
}

/**
 * Everything one mount of the auth method keeps. Collections live in the emulator's store (named
 * `cloud-auth:<mount>:<what>`), so they show in snapshots; caches live here and are dropped with the state.
 */
export class AuthState {
  readonly mount: string
  readonly roles: KeyedCollection<RoleEntry>
  readonly certificates: KeyedCollection<CertificateEntry>
  readonly stsRoles: KeyedCollection<StsEntry>
  readonly accessList: KeyedCollection<AccessListEntry>
  readonly denyList: KeyedCollection<DenyListEntry>
  readonly #singletons: KeyedCollection<Singleton>
  /** The base credentials' own account, learned by one GetCallerIdentity; cleared when config/client changes. */
  defaultAccountId: string | undefined
  /** When the lazy periodic tidy next runs (emulator clock, ms); undefined = on the next request. */
  nextPeriodicTidyMs: number | undefined
  /** Assumed-role sessions per account (config/sts), reused until they expire. */
  readonly assumedSessions = new Map<string, AssumedRoleCredentials>()
  /** iam login's unique id → full ARN cache. */
  readonly fullArns = new Map<string, FullArnEntry>()
  /**
   * Each stored role's read data, written on its first read. A write stores a new record (handlers change
   * copies), so an entry never outlives the record it was written from.
   */
  readonly roleReads = new WeakMap<RoleEntry, WrittenJson>()

  constructor(emulator: Emulator, mount: string) {
    this.mount = mount
    const name = (what: string) => `cloud-auth:${mount}:${what}`
    this.roles = emulator.store.collection(name('roles'), { key: (role: RoleEntry) => role.name })
    this.certificates = emulator.store.collection(name('certificates'), { key: (cert: CertificateEntry) => cert.name })
    this.stsRoles = emulator.store.collection(name('sts'), { key: (entry: StsEntry) => entry.account_id })
    this.accessList = emulator.store.collection(name('identity-accesslist'), {
      key: (entry: AccessListEntry) => entry.instance_id,
    })
    this.denyList = emulator.store.collection(name('roletag-denylist'), { key: (entry: DenyListEntry) => entry.tag })
    this.#singletons = emulator.store.collection(name('config'), { key: (entry: Singleton) => entry.key })
  }

  get clientConfig(): ClientConfig | undefined {
    return this.#get('config/client')
  }

  set clientConfig(value: ClientConfig | undefined) {
    this.#put('config/client', value)
    this.defaultAccountId = undefined
  }

  get identityConfig(): IdentityConfig | undefined {
    return this.#get('config/identity')
  }

  set identityConfig(value: IdentityConfig | undefined) {
    this.#put('config/identity', value)
  }

  get tidyConfig(): TidyConfigs {
    const accessList = this.#get('config/tidy/identity-accesslist')
    const denyList = this.#get('config/tidy/roletag-denylist')
    return { ...(accessList && { accessList }), ...(denyList && { denyList }) }
  }

  set tidyConfig(value: TidyConfigs) {
    this.#put('config/tidy/identity-accesslist', value.accessList)
    this.#put('config/tidy/roletag-denylist', value.denyList)
  }

  /** Drops everything the mount holds (the mount was disabled). */
  clear(): void {
    for (const collection of [this.roles, this.certificates, this.stsRoles, this.accessList, this.denyList]) {
      collection.clear()
    }
    this.#singletons.clear()
    this.defaultAccountId = undefined
    this.nextPeriodicTidyMs = undefined
    this.assumedSessions.clear()
    this.fullArns.clear()
  }

  #get<K extends Singleton['key']>(key: K): SingletonValue<K> | undefined {
    return this.#singletons.get(key)?.value as SingletonValue<K> | undefined
  }

  #put<K extends Singleton['key']>(key: K, value: SingletonValue<K> | undefined): void {
    if (value === undefined) this.#singletons.delete(key)
    else this.#singletons.set({ key, value } as Singleton)
  }
}

/** The emulator domain key of one mount's state. */
export const authDomain = (mount: string): string => `cloud-auth:${mount}`

/** The state of the auth method mounted at `auth/<mount>` on this emulator. */
export function authState(emulator: Emulator, mount: string): AuthState {
  return emulator.domain(authDomain(mount), () => new AuthState(emulator, mount))
}

/** The identity configuration in effect: the stored one, or the defaults (aliases `role_id`). */
export function effectiveIdentityConfig(state: AuthState): IdentityConfig {
  return state.identityConfig ?? { iam_alias: 'role_id', ec2_alias: 'role_id', iam_metadata: null, ec2_metadata: null }
}
