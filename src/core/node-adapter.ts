import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import { PassThrough, Readable } from 'node:stream'
import { LightRequest } from './light-request.ts'
import { bodyless, responseParts, wireHeaders } from './light-response.ts'
import { isStreamed } from './json-chunks.ts'
import { once } from 'node:events'
import type { Socket } from 'node:net'

/** Bodies up to this size are read into memory first (cheaper than a stream); larger ones stream. */
const BUFFERED_BODY_LIMIT = 1024 * 1024

/** The first value of a header in Node's `rawHeaders` (as `req.headers` keeps it), without building that object. */
function firstRawHeader(raw: string[], lowerName: string): string | undefined {
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]!
    if (key.length === lowerName.length && key.toLowerCase() === lowerName) return raw[i + 1]
  }
  return undefined
}

function readWhole(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

/**
 * Turns a Node request into a Fetch `Request`, keeping repeated headers and the Host as received (under
 * `scheme`, which a TLS listener gives as `https`, so links built from the request's origin stay on TLS). A
 * request without a body or with one up to 1 MiB becomes a light request (read into memory first);
 * a larger or chunked body streams through a real `Request`.
 */
export async function toFetchRequest(req: IncomingMessage, fallbackHost: string, scheme: 'http' | 'https' = 'http'): Promise<Request> {
  const raw = req.rawHeaders
  const method = req.method ?? 'GET'
  const url = `${scheme}://${firstRawHeader(raw, 'host') ?? fallbackHost}${req.url ?? '/'}`
  if (method === 'GET' || method === 'HEAD') return new LightRequest(method, url, raw, undefined)
  const length = firstRawHeader(raw, 'content-length')
  if (length === undefined && firstRawHeader(raw, 'transfer-encoding') === undefined) return new LightRequest(method, url, raw, undefined)
  const declared = Number(length)
  if (length !== undefined && Number.isInteger(declared) && declared <= BUFFERED_BODY_LIMIT) {
    return new LightRequest(method, url, raw, declared === 0 ? undefined : await readWhole(req))
  }
  const headers = new Headers()
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!)
  return new Request(url, { method, headers, body: detachableBody(req), duplex: 'half' } as RequestInit)
}

/**
 * A streamed body as a web stream whose cancel (a service or the journal stopping early) lets go of the
 * request instead of destroying it: destroying it resets the connection under an answer that said it
 * stays open. The answer ends such a connection after it instead (`closeIfUnread`).
 */
function detachableBody(req: IncomingMessage): ReadableStream {
  const through = new PassThrough()
  req.pipe(through)
  return Readable.toWeb(through) as ReadableStream
}

async function collect(response: Response): Promise<{ headers: Record<string, string | string[]>; body: Buffer | undefined }> {
  const headers: Record<string, string | string[]> = {}
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers['set-cookie'] = cookies
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined
  if (!bodyless(response.status)) headers['content-length'] = String(body?.length ?? 0)
  return { headers, body }
}

/**
 * Before an answer: a request whose body did not arrive to its end (answered without it, or only its start
 * read) leaves the connection at an unknown point of the byte stream, so the answer says `Connection:
 * close` and the connection ends after it, as the real service's server does past what it is willing to
 * discard. Kept open, the rest of the body would stall or reset the client's next request.
 */
export function closeIfUnread(res: ServerResponse): void {
  if (res.req.complete) return
  res.shouldKeepAlive = false
  lingerOnClose(res.socket, res.req)
}

/**
 * How long a connection closed under a body still arriving stays open for reading after the answer: Go's
 * `rstAvoidanceDelay`, under the real service. Closed at once, the socket is reset under a client still
 * sending (unread bytes make the kernel answer with RST), which then sees EPIPE or ECONNRESET, and may lose
 * the answer itself, instead of the answer.
 */
const LINGER_MS = 500

/**
 * After the answer Node ends the connection with `destroySoon`: here it sends the answer and its FIN at
 * once, goes on reading (the rest of the body is dropped) and closes when the client has ended its side, or
 * after `LINGER_MS`. A taken-over connection (the LIST verb's) has no `destroySoon` and is
 * ended as Node ends it.
 */
function lingerOnClose(socket: ServerResponse['socket'], req: IncomingMessage): void {
  const lingering = socket as Socket | null
  // An own `destroySoon` is this one, set for an earlier answer on the connection.
  if (lingering === null || typeof lingering.destroySoon !== 'function' || Object.hasOwn(lingering, 'destroySoon')) return
  lingering.destroySoon = () => {
    if (lingering.writable) lingering.end()
    // A body a service let go of is paused: flowing again, with no reader, it is dropped as it arrives.
    req.resume()
    const timer = setTimeout(() => lingering.destroy(), LINGER_MS)
    timer.unref()
    lingering.once('close', () => clearTimeout(timer))
    lingering.once('end', () => lingering.destroy())
  }
}

/**
 * Writes a Fetch `Response` back through Node's `ServerResponse`. A light response (status, header
 * record, string or bytes) is written at once with one `writeHead` and `end`, as the real `Response`
 * would be on the wire (Content-Length set; an untyped string body is `text/plain;charset=UTF-8`). The
 * connection ends after it when the request's body has not arrived whole (`closeIfUnread`).
 */
export function writeFetchResponse(res: ServerResponse, response: Response): void | Promise<void> {
  closeIfUnread(res)
  const parts = responseParts(response)
  if (parts === undefined) return writeReadResponse(res, response)
  res.writeHead(parts.status, wireHeaders(parts))
  res.end(parts.body ?? undefined)
}

async function writeReadResponse(res: ServerResponse, response: Response): Promise<void> {
  if (isStreamed(response) && response.body) return writeStreamed(res, response, response.body)
  const { headers, body } = await collect(response)
  res.writeHead(response.status, response.statusText || undefined, headers)
  res.end(body)
}


/**
 * Sends a body as it is made (chunked), waiting for the socket to drain when it is behind: a state of
 * hundreds of megabytes is never collected into one buffer. A client gone stops the reading.
 */
async function writeStreamed(res: ServerResponse, response: Response, body: ReadableStream<Uint8Array>): Promise<void> {
  const headers: OutgoingHttpHeaders = {}
  response.headers.forEach((value, name) => (headers[name] = value))
  res.writeHead(response.status, response.statusText || undefined, headers)
  const reader = body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done || res.destroyed) break
      if (!res.write(value)) await drainedOrClosed(res)
    }
  } finally {
    void reader.cancel().catch(() => undefined)
  }
  res.end()
}

/** Resolves once `res` drains or closes; the listener of the other event goes, so a long answer adds none up. */
async function drainedOrClosed(res: ServerResponse): Promise<void> {
  const done = new AbortController()
  try {
    await Promise.race([once(res, 'drain', { signal: done.signal }), once(res, 'close', { signal: done.signal })])
  } finally {
    done.abort()
  }
}
