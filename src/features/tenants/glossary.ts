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

export type { TenantDirectory, TenantSummary } from '../../core/glossary.ts'
