import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer as createNetServer, type AddressInfo, type Server } from 'node:net'
import { DroppedConnection, type Doppel, type Surface } from '../doppel.ts'
import { listAwareSocket } from './list-verb.ts'
import { toFetchRequest, writeFetchResponse } from './node-adapter.ts'

export interface ServerOptions {
  /** `main` serves every service; `cloud` serves the fake cloud at the root (`--cloud-port`). */
  surface?: Surface
  /** Called once per answered request, for the access log. */
  onRequest?: (line: { method: string; path: string; status: number; ms: number }) => void
}

export interface RunningServer {
  url: string
  port: number
  host: string
  close(): Promise<void>
}

/**
 * Serves an emulator over real HTTP: a small adapter from `node:http` to the emulator's fetch function,
 * not a second implementation. Accepts the `LIST` verb.
 */
export function createDoppelServer(doppel: Doppel, options: ServerOptions = {}): Server {
  const surface = options.surface ?? 'main'
  const http = createHttpServer({ keepAliveTimeout: 5000 }, (req, res) => void answer(req, res))
  const net = createNetServer((socket) => http.emit('connection', listAwareSocket(socket)))

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now()
    const address = (req.socket as unknown as { remoteAddress?: string }).remoteAddress ?? '127.0.0.1'
    let status = 0
    try {
      const addr = net.address() as AddressInfo | null
      const request = toFetchRequest(req, `127.0.0.1:${addr?.port ?? 0}`)
      const response = await doppel.handle(request, { remoteAddress: address.replace(/^::ffff:/, ''), surface })
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
      options.onRequest?.({ method: req.method === 'LINK' ? 'LIST' : req.method ?? '', path: req.url ?? '/', status, ms: performance.now() - started })
    }
  }

  net.on('close', () => http.close())
  return net
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
  const sockets = new Set<import('node:net').Socket>()
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    host: address.address,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
