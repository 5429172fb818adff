import { getHeapStatistics } from 'node:v8'
import { Clock } from '../../core/clock.ts'
import { jsonResponse, pathStart } from '../../core/http.ts'
import { createDoppel, type Doppel, type DoppelOptions, type HandleOptions } from '../doppel/index.ts'
import type { TenantDirectory, TenantOptions, TenantSummary } from './glossary.ts'
import { checkTenantName, splitTenantPath, tenantBase, TenantNameError } from './tenant-name.ts'
import { controlPath } from '../../services/control/urls.ts'

const DEFAULT_MAX_TENANTS = 100
const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60 * 1000
const DEFAULT_HEAP_SHARE = 0.7
/** Idle tenants are looked for at most this often (and always before a new one is refused). */
const SWEEP_INTERVAL_MS = 1000

interface Tenant {
  doppel: Doppel
  createdAt: number
  lastUsedAt: number
  requests: number
  /** Requests of this tenant not yet answered: a tenant is idle only when there are none. */
  running: number
}

/**
 * The tenants of one server: a full emulator instance per name, created on first use with the root
 * instance's options, answering requests under `/t/<name>/`. Idle tenants are dropped lazily, when
 * requests come in, so the registry owns no timer.
 */
export class TenantRegistry implements TenantDirectory {
  readonly maxTenants: number
  readonly idleTimeoutMs: number
  readonly heapLimitBytes: number
  readonly #heapUsed: () => number
  readonly #root: Doppel
  readonly #now: () => number
  // Least recently used first: a request moves its tenant to the end, so a sweep stops at the first live one.
  readonly #tenants = new Map<string, Tenant>()
  #nextSweepAt = 0
  readonly #dropHooks: ((id: string) => Promise<void> | undefined)[] = []
  /** What the drop hooks of the drops so far still have to do. */
  #dropping: Promise<void> = Promise.resolve()

  constructor(root: Doppel, options: TenantOptions = {}) {
    this.maxTenants = options.maxTenants ?? DEFAULT_MAX_TENANTS
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS
    if (!Number.isSafeInteger(this.maxTenants) || this.maxTenants < 0) throw new RangeError(`maxTenants must be a whole number ≥ 0, not ${this.maxTenants}`)
    if (!(this.idleTimeoutMs > 0)) throw new RangeError(`idleTimeoutMs must be more than 0, not ${this.idleTimeoutMs}`)
    this.heapLimitBytes = options.heapLimitBytes ?? Math.floor(getHeapStatistics().heap_size_limit * DEFAULT_HEAP_SHARE)
    if (!(this.heapLimitBytes > 0)) throw new RangeError(`heapLimitBytes must be more than 0, not ${this.heapLimitBytes}`)
    this.#heapUsed = options.heapUsed ?? (() => getHeapStatistics().used_heap_size)
    this.#root = root
    this.#now = options.wallClock ?? Date.now
  }

  /**
   * Answers a request: under `/t/<name>/` by that tenant, with the prefix taken off the URL; otherwise by
   * the root instance. A bad name is 400 and a new tenant beyond the cap 429, in the control API's envelope.
   */
  async handle(request: Request, options: HandleOptions = {}): Promise<Response> {
    // Most requests carry no prefix: tell by the string, without parsing the URL a second time.
    const raw = request.url
    if (!raw.startsWith('/t', pathStart(raw))) return this.#root.handle(request, { ...options, tenants: this })
    const url = new URL(raw)
    let split
    try {
      split = splitTenantPath(url.pathname)
    } catch (error) {
      if (error instanceof TenantNameError) return jsonResponse(400, { errors: [error.message] })
      throw error
    }
    if (split === undefined) return this.#root.handle(request, { ...options, tenants: this })
    const tenant = this.#use(split.tenant)
    if (typeof tenant === 'string') {
      return jsonResponse(429, { errors: [`${tenant}; DELETE ${controlPath('tenants/<id>')} drops one, idle ones go after ${this.idleTimeoutMs / 1000}s`] })
    }
    url.pathname = split.path
    tenant.running++
    try {
      return await tenant.doppel.handle(withUrl(request, url), options)
    } finally {
      this.#finished(split.tenant, tenant)
    }
  }

  /**
   * Marks the tenant a request target names as in use while the request's body is still arriving (the
   * server reads a small body whole before `handle`): a slow upload keeps its tenant from being dropped as
   * idle. Returns the release, or undefined when the target names no existing tenant.
   */
  holdFor(target: string): (() => void) | undefined {
    let split
    try {
      split = splitTenantPath(target.split('?', 1)[0]!)
    } catch (error) {
      if (error instanceof TenantNameError) return undefined
      throw error
    }
    const tenant = split && this.#tenants.get(split.tenant)
    if (split === undefined || tenant === undefined) return undefined
    tenant.running++
    return () => this.#finished(split.tenant, tenant)
  }

  list(): TenantSummary[] {
    this.#sweep(this.#now())
    return [...this.#tenants]
      .map(([id, tenant]) => ({
        id,
        created_at: new Date(tenant.createdAt).toISOString(),
        last_used_at: new Date(tenant.lastUsedAt).toISOString(),
        requests: tenant.requests,
      }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  }

  /** Runs `hook` for every tenant dropped from now on (asked or idle), e.g. to remove its saved file. */
  onDrop(hook: (id: string) => Promise<void> | undefined): void {
    this.#dropHooks.push(hook)
  }

  /** Resolves once what the drop hooks started for the drops so far is done (a failure is theirs to report). */
  async whenDropped(): Promise<void> {
    await this.#dropping
  }

  drop(id: string): boolean {
    const tenant = this.#tenants.get(checkTenantName(id))
    if (tenant === undefined) return false
    this.#retire(id, tenant)
    return true
  }

  /**
   * The tenant's instance, created as a first request would create it (`--data-dir` restores tenants this
   * way); undefined for a new one beyond the cap. Throws TenantNameError for a bad name.
   */
  open(id: string): Doppel | undefined {
    const tenant = this.#use(checkTenantName(id))
    return typeof tenant === 'string' ? undefined : tenant.doppel
  }

  /** The tenant's instance (tests and the bench reach its in-process face through it); undefined if none. */
  get(id: string): Doppel | undefined {
    return this.#tenants.get(id)?.doppel
  }

  /** The tenant, made on first use; for a new one beyond a limit, why it was refused. */
  #use(id: string): Tenant | string {
    const now = this.#now()
    if (now >= this.#nextSweepAt) this.#sweep(now)
    let tenant = this.#tenants.get(id)
    if (tenant !== undefined) {
      this.#tenants.delete(id)
    } else {
      if (this.#tenants.size >= this.maxTenants) this.#sweep(now)
      if (this.#tenants.size >= this.maxTenants) return `tenant limit reached: ${this.maxTenants} tenants exist (--max-tenants)`
      const heap = this.#heapUsed()
      if (heap > this.heapLimitBytes) {
        return `tenant memory limit reached: the heap holds ${mebibytes(heap)} MiB, more than ${mebibytes(this.heapLimitBytes)} MiB (--tenant-heap-limit)`
      }
      tenant = { doppel: createDoppel(tenantOptions(this.#root, id)), createdAt: now, lastUsedAt: now, requests: 0, running: 0 }
    }
    tenant.lastUsedAt = now
    tenant.requests++
    this.#tenants.set(id, tenant)
    return tenant
  }

  /** A tenant's request is answered: its idle time counts from now (unless it was dropped meanwhile). */
  #finished(id: string, tenant: Tenant): void {
    tenant.running--
    if (this.#tenants.get(id) !== tenant) return
    this.#tenants.delete(id)
    tenant.lastUsedAt = this.#now()
    this.#tenants.set(id, tenant)
  }

  #sweep(now: number): void {
    this.#nextSweepAt = now + Math.min(SWEEP_INTERVAL_MS, this.idleTimeoutMs)
    for (const [id, tenant] of this.#tenants) {
      if (now - tenant.lastUsedAt < this.idleTimeoutMs) break
      if (tenant.running === 0) this.#retire(id, tenant)
    }
  }

  /**
   * Forgets a tenant; the sockets its fake cloud opened (per-instance IMDS listeners) close with it. A request
   * of its still waiting on a latency fault is refused as a dropped connection, so that no write answered
   * after the drop is lost with it.
   */
  #retire(id: string, tenant: Tenant): void {
    this.#tenants.delete(id)
    const hooks = this.#dropHooks.map((hook) => hook(id)?.catch(() => undefined))
    if (hooks.length > 0) this.#dropping = Promise.all([this.#dropping, ...hooks]).then(() => undefined)
    tenant.doppel.endPendingDelays()
    tenant.doppel.faults.clear()
    // Its entries leave the journals' shared byte budget now, not when they would have aged out.
    tenant.doppel.journal.clear()
    void tenant.doppel.cloud.close()
  }
}

const mebibytes = (bytes: number) => Math.round(bytes / 1048576)

/** The root's options for a new tenant: its own clock (never a shared one), its prefix, the same fixtures. */
function tenantOptions(root: Doppel, id: string): DoppelOptions {
  const { clock, fixtures: _fixtures, ...rest } = root.options
  return {
    ...rest,
    ...(clock !== undefined && { clock: clock instanceof Clock ? { start: clock.now(), frozen: clock.frozen } : clock }),
    ...(root.fixtureSources.length > 0 && { fixtures: [...root.fixtureSources] }),
    basePath: root.basePath + tenantBase(id),
    // One server, one set of caps: a tenant's IMDS listeners and faults count against its root's.
    sharedLimits: root.sharedLimits,
    // The seed fixtures are parsed and checked once for the server, not once per tenant.
    checkedFixtures: root.checkedFixtures,
  }
}

/** The same request at another URL; the body stream moves over unread. */
function withUrl(request: Request, url: URL): Request {
  return new Request(url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: request.signal,
    ...(request.body && { duplex: 'half' as const }),
  })
}
