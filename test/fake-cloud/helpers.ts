import { createHash, createHmac } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { http } from 'msw'
import { setupServer, type SetupServer } from 'msw/node'
import type { Doppel, Surface } from '../../src/features/doppel/index.ts'

/**
 * Test-local faces on a Doppel (the official MSW and server adapters live elsewhere): MSW handlers that send
 * AWS hostnames to `doppel.fetch`, and a minimal node:http server that calls `doppel.handle`.
 */

const CLOUD_HOST = /^(169\.254\.169\.254|[^/]*\.amazonaws\.com)$/

export function startMsw(doppel: Doppel): SetupServer {
  const server = setupServer(
    http.all('*', ({ request }) => (CLOUD_HOST.test(new URL(request.url).hostname) ? doppel.fetch(request) : undefined)),
  )
  server.listen({ onUnhandledFrame: 'bypass' })
  return server
}

export interface TestServer {
  url: string
  close(): Promise<void>
}

export async function startServer(doppel: Doppel, surface: Surface = 'main'): Promise<TestServer> {
  const server = createServer(async (req, res) => {
    const response = await doppel.handle(toRequest(req), { surface })
    const headers: Record<string, string> = {}
    response.headers.forEach((value, name) => (headers[name] = value))
    res.writeHead(response.status, headers)
    res.end(Buffer.from(await response.arrayBuffer()))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

function toRequest(req: IncomingMessage): Request {
  const headers = new Headers()
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!)
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
  return new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method,
    headers,
    ...(hasBody && { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' }),
  } as RequestInit)
}

/** The hash constructor `@smithy/signature-v4` wants, on node:crypto. */
type SourceData = string | ArrayBuffer | ArrayBufferView

export class NodeSha256 {
  #secret: Buffer | undefined
  #hash: ReturnType<typeof createHash> | ReturnType<typeof createHmac>
  constructor(secret?: SourceData) {
    this.#secret = secret === undefined ? undefined : toBuffer(secret)
    this.#hash = this.#fresh()
  }
  update(data: SourceData): void {
    this.#hash.update(toBuffer(data))
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.#hash.digest())
  }
  reset(): void {
    this.#hash = this.#fresh()
  }
  #fresh() {
    return this.#secret === undefined ? createHash('sha256') : createHmac('sha256', this.#secret)
  }
}

function toBuffer(data: SourceData): Buffer {
  if (typeof data === 'string') return Buffer.from(data, 'utf8')
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  return Buffer.from(data)
}

/** The `<Code>` and `<Message>` of an AWS XML error body. */
export function xmlError(body: string): { code: string | undefined; message: string | undefined } {
  return {
    code: /<Code>([^<]*)<\/Code>/.exec(body)?.[1],
    message: /<Message>([^<]*)<\/Message>/.exec(body)?.[1]?.replace(/&apos;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&'),
  }
}

export const STS_BODY = 'Action=GetCallerIdentity&Version=2011-06-15'
