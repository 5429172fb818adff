import { Clock, type ClockOptions } from './clock.ts'
import { Faults } from './faults.ts'
import { DEFAULT_FAULT_LIMIT, DEFAULT_PARSE_WORKERS, NamedPools, SharedPool, WorkerBudget, type SharedLimits } from './shared-pool.ts'
import { Journal, JournalBudget } from './journal.ts'
import { getProfile, type Profile } from './profile.ts'
import { Random } from './random.ts'
import { Store } from './store.ts'

/** A domain state holding records that expire on the emulator clock (see Emulator.sweepExpired). */
export interface ExpiringDomain {
  /** Removes what has expired by `nowMs`, costing what was removed, not what is live. */
  sweepExpired(nowMs: number): void
}

/** The options every instance takes (`createDoppel` adds `fixtures`). */
export interface EmulatorOptions {
  /** Makes ids, tokens and nonces repeatable. Unseeded instances use `node:crypto`. */
  seed?: number | string
  /** A clock to share, or options for this instance's own clock. */
  clock?: Clock | ClockOptions
  /** Tokens allowed to call management endpoints. Default `["root"]`. */
  rootTokens?: string[]
  /**
   * The names the services answer under: `service` (default: `/v1/auth/cloud`, `X-Service-Token`,
   * `CLOUD_*`) or `vault` (Vault's own: `/v1/auth/aws`, `X-Vault-Token`, `AWS_*`), where real Vault
   * clients need them.
   */
  profile?: 'service' | 'vault'
  /**
   * Each service's own options, by the service's name (`cloud-auth`): the core keeps them for the service
   * and never reads them (`createDoppel({ cloudAuth })` fills this).
   */
  services?: Readonly<Record<string, unknown>>
  /** How many requests the journal keeps. Default 1000. */
  journalLimit?: number
  /**
   * How many bytes of each body (request and answer), as received or sent, a journal entry keeps. Default 16 KiB.
   * The entry is redacted when read, and its markers (`<redacted>`) may make the text read a little longer.
   */
  journalBodyLimit?: number
  /** How many bytes the journal holds at most, its entries' bodies included; the oldest go first. Default 128 MiB. */
  journalBytesLimit?: number
  /**
   * The path prefix clients reach this instance under (a tenant's `/t/<name>`); links the services write
   * into bodies carry it. Default: none.
   */
  basePath?: string
  /** How many faults may be set at once. Default 1000. */
  faultLimit?: number
  /**
   * Caps shared with other instances (a server's tenants draw from their root's); when given, it wins over
   * `faultLimit`, `journalBytesLimit` and the services' own limits.
   */
  sharedLimits?: SharedLimits
  /**
   * The JSON size of all records together; a write past it is refused (413). Default 256 MiB, so that a
   * saved state loads again. `Infinity`: no limit, and no write measures its record (about 1% of a login in
   * process); not with a data directory.
   */
  maxStateBytes?: number
}

/**
 * One emulator instance: it owns its store, clock, random source, journal and faults. Nothing lives at
 * module level, so instances in one process never see each other.
 */
export class Emulator {
  /** The virtual clock every expiry, tidy and SigV4 skew check reads: `advance('73h')`, `set(…)`. */
  readonly clock: Clock
  /** The seeded random source of ids, tokens and nonces. */
  readonly random: Random
  /** Every stored record, by collection (`store.snapshot()` to look). */
  readonly store: Store
  /** The requests answered, newest last: `entries()`, `count(match)`, `verify(match, times?)`. */
  readonly journal: Journal
  /** Injected faults (a status, a delay or a dropped connection): `add`, `list`, `remove`, `clear`. */
  readonly faults: Faults
  /** The names the services answer under (`service` or `vault`). */
  readonly profile: Profile
  /** The tokens allowed to call management endpoints. */
  readonly rootTokens: ReadonlySet<string>
  /** Each service's own options, by the service's name, kept for it (the core never reads them). */
  readonly services: Readonly<Record<string, unknown>>
  /** The path prefix clients reach this instance under (a tenant's `/t/<name>`). */
  readonly basePath: string
  /** Caps shared with other instances (faults, parse workers, journal bytes, the services' own pools). */
  readonly sharedLimits: SharedLimits
  #domains = new Map<string, unknown>()
  #resetHooks: (() => void)[] = []
  #otherChanges = 0
  #replacing = false

  constructor(options: EmulatorOptions = {}) {
    this.clock = options.clock instanceof Clock ? options.clock : new Clock(options.clock)
    this.random = new Random(options.seed)
    this.store = new Store(options.maxStateBytes)
    this.sharedLimits = options.sharedLimits ?? {
      pools: new NamedPools(),
      faults: new SharedPool(options.faultLimit ?? DEFAULT_FAULT_LIMIT),
      parseWorkers: new WorkerBudget(DEFAULT_PARSE_WORKERS.workers, DEFAULT_PARSE_WORKERS.memoryMb, DEFAULT_PARSE_WORKERS.maxWaiting),
      journalBytes: new JournalBudget(options.journalBytesLimit),
    }
    this.journal = new Journal(options.journalLimit, options.journalBodyLimit, this.sharedLimits.journalBytes)
    this.faults = new Faults(this.random, this.sharedLimits.faults)
    this.profile = getProfile(options.profile)
    this.rootTokens = new Set(options.rootTokens ?? ['root'])
    this.services = options.services ?? {}
    this.basePath = options.basePath ?? ''
    this.clock.onMove(() => this.sweepExpired())
  }

  /**
   * Removes expired records from every domain that keeps some (tokens...), as the real service's
   * expiration manager does. Runs whenever the clock is moved; services also call it as requests come
   * in, since a running clock moves by itself.
   */
  sweepExpired(): void {
    const nowMs = this.clock.nowMs()
    for (const state of this.#domains.values()) (state as Partial<ExpiringDomain>).sweepExpired?.(nowMs)
  }

  /**
   * The per-instance state of a domain, created on first use. Domains keep their state here, never at
   * module level; `reset()` drops it.
   */
  domain<T>(key: string, create: (emulator: this) => T): T {
    let state = this.#domains.get(key) as T | undefined
    if (state === undefined) {
      state = create(this)
      this.#domains.set(key, state)
    }
    return state
  }

  /** The keys of the domains created so far. */
  domainKeys(): string[] {
    return [...this.#domains.keys()]
  }

  /** A domain's state if it was created, without creating it. */
  existingDomain<T>(key: string): T | undefined {
    return this.#domains.get(key) as T | undefined
  }

  /**
   * Replaces every domain's state (a snapshot restore): the store and the domains are emptied, then `load`,
   * built and checked beforehand, fills them (`knownSizes`: records' JSON sizes measured beforehand). The
   * journal and the reset hooks stay.
   */
  replaceState(load: (emulator: this) => void, knownSizes: ReadonlyMap<object, number> = new Map()): void {
    this.store.clear()
    this.#domains.clear()
    this.store.fillWith(knownSizes, () => load(this))
  }

  /**
   * Claims the one state replacement read in slices that may be under way (a restore over HTTP): the
   * release, or undefined when another holds it, so that two are never interleaved.
   * @internal
   */
  claimReplacement(): (() => void) | undefined {
    if (this.#replacing) return undefined
    this.#replacing = true
    return () => {
      this.#replacing = false
    }
  }

  /**
   * Grows whenever the state may have changed (store writes, random draws, clock and fault changes):
   * cheap enough to poll, for writing snapshots only when something changed.
   */
  get changes(): number {
    return this.store.writes + this.random.draws + this.clock.moves + this.faults.changes + this.#otherChanges
  }
  /** Counts a change to state a snapshot keeps outside the store (a key drawn on first use, a cache of signed values). */
  noteChange(): void {
    this.#otherChanges++
  }

  /** Whether `token` is one of the root tokens. */
  isRootToken(token: string | null | undefined): boolean {
    return typeof token === 'string' && this.rootTokens.has(token)
  }

  /** Runs after every reset, e.g. to load the seeded fixtures again. */
  onReset(hook: () => void): void {
    this.#resetHooks.push(hook)
  }

  /** Back to the seeded start: empty store, clock and random source rewound, journal and faults cleared. */
  reset(): void {
    this.journal.clear()
    this.faults.clear()
    this.clearState()
  }

  /**
   * The state alone back to the seeded start (store, domains, clock, random source), the reset hooks run
   * again; the journal and faults stay.
   */
  protected clearState(): void {
    this.clock.reset()
    this.random.reset()
    this.store.clear()
    this.#domains.clear()
    for (const hook of this.#resetHooks) hook()
  }
}
