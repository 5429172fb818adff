import type { Emulator } from './emulator.ts'
import type { Profile } from './profile.ts'

/** Per-request facts that a `Request` does not carry. */
export interface RequestContext {
  emulator: Emulator
  profile: Profile
  /** The caller's address (token_bound_cidrs). `127.0.0.1` in process. */
  remoteAddress: string
  /** The server's tenants, on the root instance of a server that has them (`GET /_doppel/tenants`). */
  tenants?: TenantDirectory
  /** `request.url` parsed, when the caller already has it (see `requestUrl`). */
  url?: URL
  /**
   * Vault's OpenAPI document, for the auth method's `sys/internal/specs/openapi`: generated on the
   * features floor from every service's routes, so the emulator hands it down (absent: the path is unknown).
   */
  vaultOpenApi?: (options: { genericMountPaths: boolean }) => Promise<unknown>
  /** Aborted when the server stops: outgoing calls made for the request (provider calls) end with it. */
  signal?: AbortSignal
}

/** One emulated service: a plain fetch function over an emulator instance. */
export type Service = (request: Request, context: RequestContext) => Promise<Response>

/** One tenant as `GET /_doppel/tenants` lists it. */
export interface TenantSummary {
  id: string
  created_at: string
  last_used_at: string
  requests: number
}

/** What the root control API needs from the tenants of its server (kept here: the request context carries it). */
export interface TenantDirectory {
  readonly maxTenants: number
  readonly idleTimeoutMs: number
  list(): TenantSummary[]
  /** Drops a tenant and its state; false when there is none by that name. */
  drop(id: string): boolean
  /** Resolves once the drops so far are complete (a server's `--data-dir` removes the tenant's file). */
  whenDropped(): Promise<void>
}
