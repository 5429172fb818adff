import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { DroppedConnection, type Doppel, type Surface } from '../doppel.ts'
import { rawToFetchRequest, toFetchRequest, writeFetchResponse, writeRawResponse } from './node-adapter.ts'
import { parseRawRequests, RawRequestError } from './raw-requests.ts'
import { requestRouter, type TenantOptions, type TenantRegistry } from '../tenants/index.ts'

export interface ServerOptions {
  /** `main` serves every service; `cloud` serves the fake cloud at the root (`--cloud-port`). */
  surface?: Surface
  /** Called once per answered request, for the access log. */
  onRequest?: (line: { method: string; path: string; status: number; ms: number }) => void
  /** Serve tenants under `/t/<name>/`: options, or a registry shared with another listener. Default: none. */
  tenants?: TenantOptions | TenantRegistry
}

export interface RunningServer {
  url: string
  port: number
  host: string
  close(): Promise<void>
}

interface ClientError extends Error {
  code?: string
  rawPacket?: Buffer
}

/**
 * Serves an emulator over real HTTP: a small adapter from `node:http` to the emulator's fetch function,
 * not a second implementation.
 *
 * @note Node's parser refuses the `LIST` verb Vault clients send (`HPE_INVALID_METHOD`). Rather than slow
 * every connection down by rewriting its bytes, such a packet is read by hand from the parser's error
 * (pipelined requests after it included), answered, and the connection closed, as HTTP allows.
 */
export function createDoppelServer(doppel: Doppel, options: ServerOptions = {}): Server {
  const surface = options.surface ?? 'main'
  const server = createHttpServer({ keepAliveTimeout: 5000 }, (req, res) => void answer(req, res))
  let host: string | undefined
  const fallbackHost = () => (host ??= `127.0.0.1:${(server.address() as AddressInfo | null)?.port ?? 0}`)

  const router = requestRouter(doppel, options.tenants)

  async function respond(request: Request, remoteAddress: string | undefined): Promise<Response> {
    return router.handle(request, { remoteAddress: (remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, ''), surface })
  }

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now()
    let status = 0
    try {
      const response = await respond(await toFetchRequest(req, fallbackHost()), req.socket.remoteAddress)
      status = response.status
      await writeFetchResponse(res, response)
    } catch (error) {
      if (error instanceof DroppedConnection) {
        req.socket.destroy()
        return
      }
      status = 500
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify({ errors: [`internal error: ${(error as Error).message}`] }) + '\n')
    } finally {
      options.onRequest?.({ method: req.method ?? '', path: req.url ?? '/', status, ms: performance.now() - started })
    }
  }

  async function answerRaw(packet: Buffer, socket: Socket): Promise<void> {
    let requests
    try {
      requests = parseRawRequests(packet)
    } catch (error) {
      if (!(error instanceof RawRequestError)) throw error
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
      return
    }
    for (const [index, raw] of requests.entries()) {
      const started = performance.now()
      let response: Response
      try {
        response = await respond(rawToFetchRequest(raw, fallbackHost()), socket.remoteAddress)
      } catch (error) {
        socket.destroy()
        if (error instanceof DroppedConnection) return
        throw error
      }
      await writeRawResponse(socket, response, index === requests.length - 1)
      options.onRequest?.({ method: raw.method, path: raw.target, status: response.status, ms: performance.now() - started })
    }
    socket.end()
  }

  server.on('clientError', (error: ClientError, socket: Socket) => {
    const packet = error.rawPacket
    if (error.code === 'HPE_INVALID_METHOD' && packet && /^[A-Z]+ /.test(packet.subarray(0, 16).toString('latin1'))) {
      void answerRaw(packet, socket).catch(() => socket.destroy())
      return
    }
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
    else socket.destroy()
  })
  return server
}

/** Starts a server and resolves once it listens. Port 0 picks a free port. */
export async function listen(server: Server, port: number, host: string): Promise<RunningServer> {
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
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    host: address.address,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
