import { createServer as createHttpServer, ServerResponse, type IncomingMessage, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { Server as TlsServer } from 'node:tls'
import type { AddressInfo, Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { Doppel, DroppedConnection, type Surface } from '../../features/doppel/index.ts'
import { LightRequest } from '../../core/light-request.ts'
import { requestRouter, type TenantOptions, type TenantRegistry } from '../../features/tenants/index.ts'
import { listVerb, plainAnswer, type ClientError } from './list-verb.ts'
import { closeIfUnread, toFetchRequest, writeFetchResponse } from '../../core/node-adapter.ts'
import { callerHook } from '../../core/caller-hook.ts'
import { redactPath } from '../../services/control/index.ts'
import { createRequestGuard, serviceRefusal, type GuardOptions } from './request-guard.ts'
import { guardTlsConnections } from './tls-connections.ts'

export interface ServerOptions extends GuardOptions {
  /** `main` serves every service; `cloud` serves the fake cloud at the root (`--cloud-port`). */
  surface?: Surface
  /** Called once per answered request, for the access log; a throw in it changes no answer (the first is reported as a process warning). */
  onRequest?: (line: { method: string; path: string; status: number; ms: number }) => void
  /** Serve tenants under `/t/<name>/`: options, or a registry shared with another listener. Default: none. */
  tenants?: TenantOptions | TenantRegistry
  /** Time allowed for a request's headers (default 10 s), then 408. */
  headersTimeoutMs?: number
  /** Time allowed for a whole request (default 120 s), then 408. */
  requestTimeoutMs?: number
  /**
   * Serve HTTPS with this PEM certificate (the chain may follow it) and key; `issueServerCertificate`
   * makes a development pair. The TLS handshake gets the headers' time-out.
   */
  tls?: { cert: string | Buffer; key: string | Buffer }
}

export interface RunningServer {
  url: string
  port: number
  host: string
  /**
   * Stops listening, closes idle connections and gives requests in flight up to `budgetMs` (default 400) to
   * be answered; one still unanswered then gets a 503 in its service's envelope, and every connection closes.
   */
  close(budgetMs?: number): Promise<void>
}

/** How long a stop waits for requests in flight: inside the second in which doppel promises to stop. */
export const STOP_BUDGET_MS = 400

/** What a stop tells a request it could not finish. */
const STOPPING_MESSAGE = 'doppel is stopping: the request was not finished'

/** The stop with a grace period that `createDoppelServer` gives its server; `listen`'s close calls it. */
const DRAIN = Symbol('drain')
type Drainable = Server & { [DRAIN]?: (budgetMs: number) => Promise<void> }

/**
 * A connection's answers under way, kept on its socket: the last one's promise, which the next request
 * waits for, and the responses not yet ended. Kept there, not in a map from responses: such a map cost
 * the server about 5 µs of CPU per request (docs/performance.md "Answers written together").
 */
const ANSWERING = Symbol('doppel.answering')
type Answering = Socket & { [ANSWERING]?: { last: Promise<void> | undefined; responses: ServerResponse[] } }

/** Answers to requests Node's parser refuses, by its error code; anything else malformed is 400. */
const PARSER_ERROR_STATUS: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
}

/** The address a server binds when no host is given: loopback, never every interface by surprise. */
const DEFAULT_HOST = '127.0.0.1'

/**
 * Serves an emulator over real HTTP: a small adapter from `node:http` to the emulator's fetch function,
 * not a second implementation. A request guard (Host, cross-site, control token) runs first; the `LIST`
 * verb Node's parser refuses is handled by `listVerb`.
 *
 * `server.listen(port)` binds 127.0.0.1 unless a host is given (Node alone would bind every interface);
 * `server.close()` also aborts the outgoing calls requests are waiting on.
 */
export function createDoppelServer(doppel: Pick<Doppel, 'handle'>, options: ServerOptions = {}): Server {
  const surface = options.surface ?? 'main'
  const headersTimeout = options.headersTimeoutMs ?? 10_000
  const httpOptions = {
    keepAliveTimeout: 5000,
    headersTimeout,
    requestTimeout: Math.max(options.requestTimeoutMs ?? 120_000, headersTimeout),
    // Node checks the two time-outs on this period (30 s by default, too coarse for a 10 s limit).
    connectionsCheckingInterval: Math.max(10, Math.min(1000, headersTimeout / 4)),
  }
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    list.markMethod(req)
    answerInOrder(req, res)
  }
  const scheme = options.tls ? 'https' : 'http'
  const server: Server = options.tls
    ? createHttpsServer({ ...httpOptions, cert: options.tls.cert, key: options.tls.key, handshakeTimeout: headersTimeout }, onRequest)
    : createHttpServer(httpOptions, onRequest)
  if (options.tls) guardTlsConnections(server, headersTimeout)
  // CONNECT opens no tunnel here: it is answered (and journaled) like any request, then the connection
  // closes; Node alone would drop the connection unanswered. Node's server no longer holds such a socket,
  // so it is closed here as Node closes any other: `destroySoon`, never left half-open for the client to
  // keep (which would hold the server's close).
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    const res = new ServerResponse(req)
    res.shouldKeepAlive = false
    res.assignSocket(socket)
    res.once('finish', () => socket.destroySoon())
    onRequest(req, res)
  })
  const list = listVerb(server)
  const guard = createRequestGuard(doppel, server, options, { surface, tenants: options.tenants !== undefined })
  const closeAllConnections = server.closeAllConnections.bind(server)
  server.closeAllConnections = () => {
    closeAllConnections()
    list.closeAll()
  }
  // Closing ends the outgoing calls requests are waiting on (provider calls, the recorder's upstream),
  // which would otherwise hold the close, and the process, for their time-outs and retries.
  const stopping = new AbortController()
  const close = server.close.bind(server)
  server.close = (callback) => {
    stopping.abort(new Error('the server is stopping'))
    return close(callback)
  }
  const nodeListen = server.listen.bind(server) as (...args: unknown[]) => Server
  server.listen = ((...args: unknown[]) => nodeListen(...onLoopback(args))) as Server['listen']
  let host: string | undefined
  const fallbackHost = () => (host ??= `127.0.0.1:${(server.address() as AddressInfo | null)?.port ?? 0}`)

  const router = requestRouter(doppel, options.tenants)

  // Connections with requests being answered, so that a stop can wait for them, then answer the rest itself.
  const busy = new Set<Answering>()
  ;(server as Drainable)[DRAIN] = async (budgetMs) => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    server.closeIdleConnections()
    if (busy.size > 0) {
      let timer: NodeJS.Timeout | undefined
      const answered = Promise.all([...busy].map((connection) => connection[ANSWERING]!.last))
      await Promise.race([answered, new Promise((resolve) => (timer = setTimeout(resolve, budgetMs)))])
      clearTimeout(timer)
    }
    const waiting = [...busy].flatMap((connection) => connection[ANSWERING]!.responses)
    await Promise.all(waiting.map((res) => answerStopping(res)))
    server.closeAllConnections()
    await closed
  }

  /** A 503 in the envelope of the service the request was for, unless its answer has begun; then the connection closes. */
  async function answerStopping(res: ServerResponse): Promise<void> {
    if (res.headersSent || !res.writable) return
    res.shouldKeepAlive = false
    await writeFetchResponse(res, serviceRefusal(res.req.url ?? '/', 503, STOPPING_MESSAGE))
  }

  async function respond(request: Request, remoteAddress: string | undefined): Promise<Response> {
    const address = remoteAddress ?? '127.0.0.1'
    return router.handle(request, {
      remoteAddress: address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address,
      surface,
      signal: stopping.signal,
    })
  }

  // Node parses pipelined requests as they arrive and would run them side by side: a GET behind a POST could
  // be answered before the POST's body was read and its write made. Each request on a connection starts once
  // the one before it is answered, so requests take effect in the order they were sent.
  function answerInOrder(req: IncomingMessage, res: ServerResponse): void {
    const connection: Answering = list.connectionOf(req)
    const answering = (connection[ANSWERING] ??= { last: undefined, responses: [] })
    const before = answering.last
    const run = () => answer(req, res)
    // A request starts after the one before it, whether that one was answered or failed.
    const done = before === undefined ? run() : before.then(run, run)
    answering.last = done
    answering.responses.push(res)
    busy.add(connection)
    // A connection's answers end in the order they began: the one that ended is the first still listed.
    const ended = () => {
      answering.responses.shift()
      if (answering.last !== done) return
      answering.last = undefined
      busy.delete(connection)
    }
    // `answer` answers every error of a service itself; one it could not answer leaves the connection in
    // an unknown state, so it is closed.
    done.then(ended, () => {
      ended()
      req.socket.destroy()
    })
  }

  const logAnswer = callerHook('onRequest', options.onRequest)

  /**
   * A refused request's URL for the journal: under the server's own address when its Host makes no URL
   * (the refusal's explanation shows the Host). A target no URL can hold leaves it unjournaled: the
   * refusal itself is still answered.
   */
  function refusedUrl(req: IncomingMessage): string {
    const target = req.url ?? '/'
    const url = `${scheme}://${req.headers.host ?? fallbackHost()}${target}`
    return URL.canParse(url) ? url : `${scheme}://${fallbackHost()}${target}`
  }

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = logAnswer ? performance.now() : 0
    let status = 0
    if (res.writableEnded) return
    // Once stopping, the connection closes after this answer.
    if (stopping.signal.aborted) res.shouldKeepAlive = false
    try {
      const refused = guard(req, res)
      // A refusal of the guard never reaches the services: it is journaled here, with its reason.
      if (refused && doppel instanceof Doppel) {
        await doppel.journalRefusal(new LightRequest(req.method ?? 'GET', refusedUrl(req), req.rawHeaders, undefined), refused, surface).catch(() => undefined)
      }
      // A tenant whose request is still uploading its body is in use: never dropped as idle meanwhile.
      const release = refused ? undefined : router.holdFor?.(req.url ?? '/')
      let response: Response
      try {
        response = refused ?? (await respond(await toFetchRequest(req, fallbackHost(), scheme), req.socket.remoteAddress))
      } finally {
        release?.()
      }
      status = response.status
      // Answers are written in the loop's check phase, after every request read in this turn was answered
      // in memory: under load one wake-up of each waiting client a turn instead of one an answer, which
      // cost the server up to a third of its CPU (docs/performance.md "Answers written together").
      await nextTurn()
      await writeFetchResponse(res, response)
    } catch (error) {
      if (error instanceof DroppedConnection) {
        // A latency fault ended by the stop is answered; a `drop` fault drops.
        if (stopping.signal.aborted) {
          status = 503
          await answerStopping(res)
        } else req.socket.destroy()
        return
      }
      status = 500
      closeIfUnread(res)
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify({ errors: [`internal error: ${(error as Error).message}`] }) + '\n')
    } finally {
      // The access log follows the journal's redaction: a presigned request's signature is no line's to print.
      logAnswer?.({ method: req.method ?? '', path: redactPath(req.url ?? '/'), status, ms: performance.now() - started })
    }
  }

  server.on('clientError', (error: ClientError, socket: Socket | Duplex) => {
    if (list.takeOver(error, socket) || list.isTakenOver(socket)) return
    const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy()
      return
    }
    socket.end(plainAnswer(PARSER_ERROR_STATUS[error.code ?? ''] ?? 400), () => socket.destroy())
  })
  return server
}

/**
 * `listen` arguments with loopback as the host when none is given: `listen()`, `listen(cb)`,
 * `listen(port, ...)` without a host string, `listen({ port })`. A pipe path or a handle is left alone.
 */
function onLoopback(args: unknown[]): unknown[] {
  const [first, second] = args
  if (first === undefined || typeof first === 'function') return [0, DEFAULT_HOST, ...args.slice(first === undefined ? 1 : 0)]
  const isPort = typeof first === 'number' || (typeof first === 'string' && first.trim() !== '' && Number.isFinite(Number(first)))
  if (isPort) return typeof second === 'string' ? args : [first, DEFAULT_HOST, ...args.slice(1)]
  const options = first as { host?: unknown; path?: unknown; fd?: unknown; handle?: unknown; _handle?: unknown } | null
  if (typeof options === 'object' && options !== null && [options.host, options.path, options.fd, options.handle, options._handle].every((value) => value == null)) {
    return [{ ...options, host: DEFAULT_HOST }, ...args.slice(1)]
  }
  return args
}

/**
 * Starts a server and resolves once it listens, on 127.0.0.1 unless `host` is given. Port 0 picks a free
 * port. The URL is `https://` for a server made with `tls`.
 */
export async function listen(server: Server, port: number, host = DEFAULT_HOST): Promise<RunningServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `${server instanceof TlsServer ? 'https' : 'http'}://${shownHost}:${address.port}`,
    port: address.port,
    host: address.address,
    close: (budgetMs = STOP_BUDGET_MS) => {
      const drain = (server as Drainable)[DRAIN]
      if (drain) return drain(budgetMs)
      return new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
  }
}
