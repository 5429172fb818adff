import type { RequestContext } from '../../core/glossary.ts'

/** Tenants: named emulator instances on one server, reached under `/t/<name>/`. */

export interface TenantOptions {
  /** How many tenants may exist at once; a request naming a new one beyond it is refused (429). Default 100. */
  maxTenants?: number
  /** Drop a tenant unused this long on the wall clock (ms). Default 30 minutes. */
  idleTimeoutMs?: number
  /** The wall clock the idle timeout reads. Default `Date.now`. */
  wallClock?: () => number
  /**
   * No new tenant while the process's JavaScript heap holds more than this (bytes): each tenant keeps a
   * whole emulator's state, so the count alone does not bound memory. Default 70% of the heap's limit.
   */
  heapLimitBytes?: number
  /** Reads the heap in use (bytes). Default V8's `used_heap_size`. */
  heapUsed?: () => number
}

/** One tenant as `GET /_doppel/tenants` lists it. */
export interface TenantSummary {
  id: string
  created_at: string
  last_used_at: string
  requests: number
}

/** What the root control API needs from the tenants of its server. */
export interface TenantDirectory {
  readonly maxTenants: number
  readonly idleTimeoutMs: number
  list(): TenantSummary[]
  /** Drops a tenant and its state; false when there is none by that name. */
  drop(id: string): boolean
  /** Resolves once the drops so far are complete (a server's `--data-dir` removes the tenant's file). */
  whenDropped(): Promise<void>
}

/**
 * The request context the root instance of a server hands its control API: the core's, with the server's
 * tenants (`GET /_doppel/tenants`). The core's context knows nothing of tenants.
 */
export interface TenantsContext extends RequestContext {
  tenants?: TenantDirectory
}
