import type { Emulator } from './emulator.ts'
import type { Profile } from './profile.ts'

/** Per-request facts that a `Request` does not carry. */
export interface RequestContext {
  emulator: Emulator
  profile: Profile
  /** The caller's address (token_bound_cidrs). `127.0.0.1` in process. */
  remoteAddress: string
  /** `request.url` parsed, when the caller already has it (see `requestUrl`). */
  url?: URL
  /** Aborted when the server stops: outgoing calls made for the request (provider calls) end with it. */
  signal?: AbortSignal
}

/** One emulated service: a plain fetch function over an emulator instance. */
export type Service = (request: Request, context: RequestContext) => Promise<Response>
