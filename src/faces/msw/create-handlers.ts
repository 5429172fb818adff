import { http, HttpResponse, type HttpHandler } from 'msw'
import { realResponse, responseParts, wireHeaders } from '../../core/light-response.ts'
import { DroppedConnection, type Doppel, classifyRequest } from '../../features/doppel/index.ts'
import { FAKE_CLOUD_URL, isFakeCloudHost } from '../../services/fake-cloud/urls.ts'

/** `createHandlers`' options: where doppel answers, and what it does with a request it does not own. */
export interface HandlerOptions {
  /**
   * Where the auth service, the registry and the control API answer (one origin for all three, as on
   * `doppel serve`). Default `http://127.0.0.1:8200`. Give several to answer on each.
   */
  baseUrl?: string | string[]
  /** Also answer the fake cloud's real hostnames (IMDS, STS, EC2, IAM). Default true. */
  cloud?: boolean
  /**
   * Answer every request on the base URLs and on AWS's host names, as `doppel serve` does: a 404 for a
   * path no doppel service owns or a host the fake cloud does not emulate. Default false: such a request
   * is left to the next handler, then to `onUnhandledRequest`.
   */
  catchAll?: boolean
}

/**
 * MSW request handlers for an emulator instance: one handler per origin, each answering through
 * `doppel.handle` (the same code as the HTTP server) what a doppel service owns, and returning nothing
 * for the rest, so that the next handler or MSW's `onUnhandledRequest` decides, as MSW's handlers do.
 *
 * @example
 * const doppel = createDoppel({ seed: 1 })
 * const server = setupServer(...createHandlers(doppel, { baseUrl: 'http://vault.test' }))
 * server.listen()
 */
export function createHandlers(doppel: Doppel, options: HandlerOptions = {}): HttpHandler[] {
  const origins = [options.baseUrl ?? 'http://127.0.0.1:8200'].flat().map((url) => url.replace(/\/+$/, ''))
  const catchAll = options.catchAll ?? false
  const resolver = async ({ request }: { request: Request }) => {
    if (!catchAll && !isDoppels(request)) return undefined
    try {
      return mswResponse(await doppel.handle(request))
    } catch (error) {
      if (error instanceof DroppedConnection) return HttpResponse.error()
      throw error
    }
  }
  const handlers = origins.map((origin) => http.all(`${origin}/*`, resolver))
  if (options.cloud ?? true) handlers.push(http.all(FAKE_CLOUD_URL, resolver))
  return handlers
}

/**
 * The answer as MSW's own Response type, which MSW hands to the client as it is: any other Response it
 * copies into one first (a second Response, its body piped through), about 1% of an in-process login.
 * Its headers are the server's (`wireHeaders`): with its Content-Length, MSW keeps the client's connection.
 */
function mswResponse(response: Response): Response {
  const parts = responseParts(response)
  if (parts === undefined) return realResponse(response)
  // A Uint8Array is a valid body at run time; MSW's typing of the body is narrower.
  return new HttpResponse(parts.body as string | null, { status: parts.status, headers: wireHeaders(parts) })
}

/**
 * Whether a doppel service owns a request (`features/doppel/route-request.ts` and the services' `urls.ts`
 * say which): a path one owns on a base URL, or an AWS host name the fake cloud emulates.
 */
function isDoppels(request: Request): boolean {
  const url = new URL(request.url)
  const { answer, face } = classifyRequest({ listener: 'main', url, authorization: () => request.headers.get('authorization') ?? undefined })
  // An AWS host name reaches the fake cloud only through one of the faces it emulates.
  if (isFakeCloudHost(url.host)) return face !== undefined
  return answer !== undefined
}
