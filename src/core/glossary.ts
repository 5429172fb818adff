import type { Emulator } from './emulator.ts'
import type { Profile } from './profile.ts'
import type { TenantDirectory } from '../tenants/glossary.ts'

/** Per-request facts that a `Request` does not carry. */
export interface RequestContext {
  emulator: Emulator
  profile: Profile
  /** The caller's address (token_bound_cidrs). `127.0.0.1` in process. */
  remoteAddress: string
  /** The server's tenants, on the root instance of a server that has them (`GET /_doppel/tenants`). */
  tenants?: TenantDirectory
}

/** One emulated service: a plain fetch function over an emulator instance. */
export type Service = (request: Request, context: RequestContext) => Promise<Response>
