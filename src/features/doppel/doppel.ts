import { Delays } from '../../core/delays.ts'
import { Emulator, type EmulatorOptions } from '../../core/emulator.ts'
import type { Service } from '../../core/glossary.ts'
import { type ControlTable, redactExplanation, redactUrl } from '../../services/control/index.ts'
import type { FakeCloudApi } from '../../services/fake-cloud/index.ts'
import { getFakeCloud } from '../../services/fake-cloud/fake-cloud-api.ts'
import type { CheckedFixtures, DoppelFixture, FixtureSource, FixtureSummary } from '../fixtures/index.ts'
import { authSeeds, registrySeeds, type AuthSeeds, type RegistrySeeds } from './seed-api.ts'
import { restoreSnapshot, takeSnapshot, type DoppelSnapshot } from '../snapshot/index.ts'
import type { TenantDirectory, TenantsContext } from '../tenants/index.ts'
import { LightResponse, realResponse } from '../../core/light-response.ts'
import { parseUrl } from '../../core/light-url.ts'
import { errorKind } from '../../core/doppel-error.ts'
import { explainResponse, responseExplanation, type Explanation } from '../../core/explanation.ts'
import { journalRequest, journalResponse, type KeptPart } from './journal-exchange.ts'
import type { JournalRequest, JournalResponse } from '../../core/journal.ts'
import { CONTROL_TABLE } from './control-table.ts'
import { classifyRequest, faultsApply, type Surface } from './route-request.ts'
import { SERVICES, type ServiceName, type ServicesOptions } from './services.ts'

export type { Surface } from './route-request.ts'

export interface HandleOptions {
  remoteAddress?: string
  surface?: Surface
  /** The server's tenants, given to the root instance so that its control API can list and drop them. */
  tenants?: TenantDirectory
  /** Aborted when the server stops; becomes the request context's `signal`. */
  signal?: AbortSignal
}

/** About what a journal entry takes beyond its URL, headers and bodies (the record, its closures, the numbers). */
const ENTRY_OVERHEAD = 400

/** Thrown (and turned into a dropped connection or a network error) by a `drop` fault. */
export class DroppedConnection extends errorKind('DroppedConnection', 'DOPPEL_CONNECTION_DROPPED') {}

/** A service and the body an injected fault answers with on it. */
interface ServiceEntry {
  serve: Service
  fault: (status: number) => Response
}

/**
 * A service whose module is imported on its first request (its descriptor's `load`): start-up loads only
 * the core and the descriptors. Once loaded, the entry's `serve` is the service itself, so later requests
 * call it directly. The module cache is code loading, not emulator state.
 */
function lazyService(load: () => Promise<Service>, fault: (status: number) => Response): ServiceEntry {
  let loading: Promise<Service> | undefined
  const entry: ServiceEntry = {
    serve: async (request, context) => {
      entry.serve = await (loading ??= load())
      return entry.serve(request, context)
    },
    fault,
  }
  return entry
}

const ENTRIES = Object.fromEntries(SERVICES.map((service) => [service.name, lazyService(service.load, service.fault)])) as Record<ServiceName, ServiceEntry>

/**
 * An emulator of both services and the fake cloud. `fetch` answers a request exactly as the HTTP
 * server and the MSW handlers do: they are faces on it.
 */
export class Doppel extends Emulator {
  /** The options it was created with, so that a tenant can be created alike. */
  readonly options: DoppelOptions
  /** Fixture files parsed and checked once for this instance and those created alike (its server's tenants). */
  readonly checkedFixtures: CheckedFixtures
  #fixtureSources: FixtureSource[] = []

  constructor(options: DoppelOptions = {}) {
    super(emulatorOptions(options))
    this.options = options
    this.checkedFixtures = options.checkedFixtures ?? new Map()
  }

  /** Every route under `/_doppel/` (the control API's, the services' set-up routes, the features'). */
  get controlTable(): ControlTable {
    return CONTROL_TABLE
  }

  /** The fake cloud's direct face: instances, principals, signed identity documents. */
  get cloud(): FakeCloudApi {
    return getFakeCloud(this)
  }

  /** Seeds the auth method (roles, config, certificates) through its own endpoints; not put back by `reset()`. */
  get auth(): AuthSeeds {
    return authSeeds({ seed: (fixture) => this.seed(fixture), ready: () => this.ready(), emulator: this })
  }

  /** Seeds the registry (organisations, tokens, modules, deprecations); not put back by `reset()`. */
  get registry(): RegistrySeeds {
    return registrySeeds({ seed: (fixture) => this.seed(fixture), ready: () => this.ready(), emulator: this })
  }

  /**
   * Puts a fixture in now, checked against the schema and tried on a scratch copy first, so a refusal
   * (FixtureError) changes nothing; unlike `useFixtures`, not again after a reset. Resolves with what it
   * put in (generated ids, tokens, principals' credentials).
   */
  async seed(fixture: DoppelFixture): Promise<FixtureSummary> {
    await this.ready()
    this.#fixtureModule ??= import('../fixtures/index.ts')
    const { loadFixtures } = await this.#fixtureModule
    return loadFixtures(this, fixture, 'seed')
  }

  /** The fixture load under way (at creation, after `useFixtures` or a reset), if any: requests wait for it. */
  #fixtures: Promise<void> | undefined
  /** The fixture module, imported once when fixtures are first given: a reset's reload imports nothing. */
  #fixtureModule: Promise<typeof import('../fixtures/index.ts')> | undefined
  /** Aborted by the next reset, so that a load it overtakes stops at its next step. */
  #generation = new AbortController()
  /** An aborted load may have written after the reset that aborted it: the next load clears the state first. */
  #stale = false
  #delays = new Delays()

  /** Ends pending latency faults at once (their requests fail as dropped connections): for shutdown. */
  endPendingDelays(): void {
    this.#delays.endAll(() => new DroppedConnection('Connection dropped: the server is shutting down'))
  }

  /**
   * Resolves once the fixtures are in (those given to `createDoppel`, to `useFixtures`, and after the
   * latest reset); rejects with their FixtureError.
   */
  async ready(): Promise<void> {
    while (this.#fixtures !== undefined) {
      const current = this.#fixtures
      await current
      if (this.#fixtures === current) return
    }
  }

  /**
   * Back to the seeded start: empty state, clock and random source rewound, journal and faults cleared,
   * fixtures loaded again. Any number of resets, awaited or not, leave exactly the seeded start: a load a
   * later reset overtakes stops, the latest loads once, and requests wait for it. The promise resolves once
   * the fixtures are in (`afterEach(() => doppel.reset())` waits for it).
   */
  override reset(): Promise<void> {
    this.#generation.abort()
    this.#generation = new AbortController()
    super.reset()
    return this.#fixtureSources.length === 0 ? Promise.resolve() : this.#load(this.#fixtureSources.slice())
  }

  /**
   * Loads fixtures now and again after every reset. Requests wait until they are in. The loader is
   * imported here, once: it brings the YAML parser and faker, which plain start-up does not need.
   */
  useFixtures(sources: FixtureSource | FixtureSource[]): void {
    const list = Array.isArray(sources) ? sources : [sources]
    this.#fixtureSources.push(...list)
    this.#fixtureModule ??= import('../fixtures/index.ts')
    void this.#load(list)
  }

  /** Loads `sources` after the load under way, unless a reset overtakes it first. */
  #load(sources: readonly FixtureSource[]): Promise<void> {
    const previous = this.#fixtures
    const signal = this.#generation.signal
    const loading = (async () => {
      await previous?.catch(() => undefined)
      // Two resets in one tick: only the latest loads.
      if (signal.aborted) return
      if (this.#stale) {
        this.#stale = false
        this.clearState()
      }
      const { loadFixtureSources } = await this.#fixtureModule!
      try {
        await loadFixtureSources(this, sources, this.checkedFixtures, signal)
      } catch (error) {
        if (!signal.aborted) throw error
      }
      if (signal.aborted) this.#stale = true
    })()
    // Surfaced by ready(), reset()'s promise and every request; not an unhandled rejection when nobody asks.
    // Once in, requests stop waiting on it.
    loading.then(
      () => {
        if (this.#fixtures === loading) this.#fixtures = undefined
      },
      () => undefined,
    )
    this.#fixtures = loading
    return loading
  }

  /** The whole state as one versioned JSON document, secrets included (README: "State that survives"). */
  snapshot(): DoppelSnapshot {
    return takeSnapshot(this)
  }

  /**
   * Replaces the state with a snapshot, checked whole first: a bad one throws SnapshotError and changes
   * nothing. The journal stays; `reset()` still returns to the seeded start.
   */
  restore(snapshot: unknown): void {
    restoreSnapshot(this, snapshot)
  }

  /** Every fixture source given to `createDoppel` or `useFixtures`, in order. */
  get fixtureSources(): readonly FixtureSource[] {
    return this.#fixtureSources
  }

  /** Answers a request in process. A `drop` fault rejects with a TypeError, as a network failure does. */
  async fetch(input: Request | string | URL, init?: RequestInit): Promise<Response> {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init)
    try {
      const response = await this.handle(request)
      return explainResponse(realResponse(response), responseExplanation(response))
    } catch (error) {
      if (error instanceof DroppedConnection) throw new TypeError('fetch failed', { cause: error })
      throw error
    }
  }

  /**
   * The single entry point: faults, routing, journal. Throws DroppedConnection for a `drop` fault. The
   * answer may be a light Response (see `core/light-response.ts`); `fetch` and MSW hand out real ones.
   */
  async handle(request: Request, options: HandleOptions = {}): Promise<Response> {
    if (this.#fixtures !== undefined) await this.ready()
    const started = performance.now()
    const url = parseUrl(request.url)
    const route = classifyRequest({ listener: options.surface ?? 'main', url, authorization: () => request.headers.get('authorization') ?? undefined })
    let response: Response
    if (route.answer === undefined) {
      response = explainResponse(new LightResponse('404 page not found\n', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } }), {
        rule: 'route',
        seen: url.pathname,
        hint: `no doppel service owns this path: ${SERVICES.flatMap((service) => service.where ?? []).join(', ')}`,
      })
    } else {
      const service = ENTRIES[route.answer]
      const fault = faultsApply(url.pathname) ? this.faults.take(request.method, url) : undefined
      if (fault?.drop) {
        await this.#record(route.journal ?? 'none', request, url, true, undefined, started)
        throw new DroppedConnection(`Connection dropped by fault ${fault.id}`)
      }
      if (fault?.latency_ms) await this.#delays.wait(fault.latency_ms)
      if (fault?.status) {
        response = service.fault(fault.status)
      } else {
        const context: TenantsContext = {
          emulator: this,
          profile: this.profile,
          remoteAddress: options.remoteAddress ?? '127.0.0.1',
          ...(options.tenants && { tenants: options.tenants }),
          ...(options.signal && { signal: options.signal }),
          url,
        }
        response = await service.serve(request, context)
      }
    }
    // Synchronous unless a real body or answer must be read first: no turn of the event loop for the usual request.
    const recorded = this.#record(route.journal ?? 'none', request, url, true, response, started)
    if (recorded !== undefined) await recorded
    return response
  }

  /**
   * Why `response` was refused, in doppel's words (`{ rule, seen, expected?, hint?, details? }`), for a
   * failing assertion's message; undefined for an answer that was not a refusal. The client's answer
   * never carries it.
   *
   * @example
   * const response = await doppel.fetch(loginRequest)
   * expect(response.status, JSON.stringify(doppel.explain(response))).toBe(200)
   */
  explain(response: Response): Explanation | undefined {
    const explanation = responseExplanation(response)
    return explanation && redactExplanation(explanation)
  }

  /**
   * Journals a request the server's guard refused before any service saw it (a Host, cross-site, token or
   * media-type check), with the guard's explanation.
   */
  async journalRefusal(request: Request, response: Response, surface: Surface = 'main'): Promise<void> {
    const url = parseUrl(request.url)
    const route = classifyRequest({ listener: surface, url, authorization: () => request.headers.get('authorization') ?? undefined })
    await this.#record(route.journal ?? 'none', request, url, false, response, performance.now())
  }

  /**
   * The exchange, bounded, and the refusal's explanation, as one journal entry (redacted when read); a
   * promise only when a real body or answer must be read first. `withBody` false for a request no service saw.
   */
  #record(service: string, request: Request, url: URL, withBody: boolean, response: Response | undefined, started: number): void | Promise<void> {
    const path = url.pathname + url.search
    const limit = this.journal.bodyLimit
    const kept = journalRequest(request, path, limit, withBody)
    const answer = response && journalResponse(response, path, limit)
    const done = performance.now()
    if (kept instanceof Promise || answer instanceof Promise) {
      return Promise.all([kept, answer]).then(([kept, answer]) => this.#keep(service, request, response, kept, answer, started, done))
    }
    this.#keep(service, request, response, kept, answer, started, done)
  }

  #keep(service: string, request: Request, response: Response | undefined, kept: KeptPart<JournalRequest>, answer: KeptPart<JournalResponse> | undefined, started: number, done: number): void {
    const explanation = response && responseExplanation(response)
    const explained = explanation && redactExplanation(explanation)
    const bytes = ENTRY_OVERHEAD + request.url.length + kept.bytes + (answer?.bytes ?? 0) + (explained ? JSON.stringify(explained).length : 0)
    this.journal.record(
      {
        timeMs: this.clock.nowMs(),
        service,
        method: request.method,
        url: redactUrl(request.url),
        status: response?.status ?? 0,
        duration: done - started,
        request: kept,
        response: answer,
        explanation: explained,
      },
      bytes,
    )
  }
}

/** `createDoppel`'s options: the instance's (seed, clock, profile, tokens, limits), each service's own, and its fixtures. */
export interface DoppelOptions extends Omit<EmulatorOptions, 'services'>, ServicesOptions {
  /**
   * Accept SHA-1-based signatures at ec2 login.
   * @deprecated Use `cloudAuth: { allowSha1 }`; this option goes in the next release.
   */
  allowSha1?: boolean
  /**
   * Environment read for the auth method's own credentials.
   * @deprecated Use `cloudAuth: { env }`; this option goes in the next release.
   */
  env?: Record<string, string | undefined>
  /**
   * How many per-instance IMDS listeners may be open at once.
   * @deprecated Use `fakeCloud: { imdsListenerLimit }`; this option goes in the next release.
   */
  imdsListenerLimit?: number
  /** Fixture files (YAML or JSON paths) or fixture objects, loaded at creation and after every reset. */
  fixtures?: FixtureSource | FixtureSource[]
  /** Fixture files already checked, shared with another instance (a server's tenants share their root's). */
  checkedFixtures?: CheckedFixtures
}

/**
 * The emulator's options: each service's own, under the name its descriptor declares, checked by the
 * service and kept under the service's name; a deprecated top-level option folded in beneath them.
 */
function emulatorOptions(options: DoppelOptions): EmulatorOptions {
  const given = options as Readonly<Record<string, unknown>>
  const rest: Record<string, unknown> = { ...options }
  const services: Record<string, unknown> = {}
  for (const { name, options: taken } of SERVICES) {
    if (taken === undefined) continue
    const own = given[taken.key] ?? {}
    if (typeof own !== 'object' || own === null) throw new TypeError(`${taken.key} must be an object of options, not ${String(own)}`)
    const deprecated = (taken.deprecatedKeys ?? []).filter((key) => given[key] !== undefined).map((key) => [key, given[key]])
    services[name] = taken.check({ ...Object.fromEntries(deprecated), ...own })
    for (const key of [taken.key, ...(taken.deprecatedKeys ?? [])]) delete rest[key]
  }
  return { ...rest, services }
}

/**
 * Creates an isolated emulator instance.
 *
 * @example
 * const doppel = createDoppel({ seed: 1 })
 * const res = await doppel.fetch('http://doppel.test/v1/auth/cloud/roles?list=true', {
 *   headers: { 'X-Service-Token': 'root' },
 * })
 */
export function createDoppel(options: DoppelOptions = {}): Doppel {
  const doppel = new Doppel(options)
  if (options.fixtures !== undefined) doppel.useFixtures(options.fixtures)
  return doppel
}
