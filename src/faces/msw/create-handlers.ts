import { http, HttpResponse, type HttpHandler } from 'msw'
import { realResponse } from '../../core/light-response.ts'
import { DroppedConnection, type Doppel } from '../../features/doppel/doppel.ts'
import { FAKE_CLOUD_URL } from '../../services/fake-cloud/index.ts'

export interface HandlerOptions {
  /**
   * Where the auth service, the registry and the control API answer (one origin for all three, as on
   * `doppel serve`). Default `http://127.0.0.1:8200`. Give several to answer on each.
   */
  baseUrl?: string | string[]
  /** Also answer the fake cloud's real hostnames (IMDS, STS, EC2, IAM). Default true. */
  cloud?: boolean
}

/**
 * MSW request handlers for an emulator instance: one catch-all handler per origin, each answering
 * through `doppel.handle` (the same code as the HTTP server).
 *
 * @example
 * const doppel = createDoppel({ seed: 1 })
 * const server = setupServer(...createHandlers(doppel, { baseUrl: 'http://vault.test' }))
 * server.listen()
 */
export function createHandlers(doppel: Doppel, options: HandlerOptions = {}): HttpHandler[] {
  const origins = [options.baseUrl ?? 'http://127.0.0.1:8200'].flat().map((url) => url.replace(/\/+$/, ''))
  const resolver = async ({ request }: { request: Request }) => {
    try {
      return realResponse(await doppel.handle(request))
    } catch (error) {
      if (error instanceof DroppedConnection) return HttpResponse.error()
      throw error
    }
  }
  const handlers = origins.map((origin) => http.all(`${origin}/*`, resolver))
  if (options.cloud ?? true) handlers.push(http.all(FAKE_CLOUD_URL, resolver))
  return handlers
}
