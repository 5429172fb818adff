import type { IncomingMessage, ServerResponse } from 'node:http'
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import { Readable } from 'node:stream'
import type { RawRequest } from './raw-requests.ts'

/** Bodies up to this size are read into memory first (cheaper than a stream); larger ones stream. */
const BUFFERED_BODY_LIMIT = 1024 * 1024

/** Turns a Node request into a Fetch `Request`, keeping repeated headers and the Host as received. */
export async function toFetchRequest(req: IncomingMessage, fallbackHost: string): Promise<Request> {
  const headers = new Headers()
  const raw = req.rawHeaders
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!)
  const method = req.method ?? 'GET'
  const url = `http://${req.headers.host ?? fallbackHost}${req.url ?? '/'}`
  if (method === 'GET' || method === 'HEAD') return new Request(url, { method, headers })
  const declared = Number(req.headers['content-length'])
  if (Number.isInteger(declared) && declared <= BUFFERED_BODY_LIMIT) {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    return new Request(url, { method, headers, body: new Uint8Array(Buffer.concat(chunks)) })
  }
  return new Request(url, { method, headers, body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } as RequestInit)
}

/** A Fetch `Request` from a request read off the socket by hand (methods Node's parser refuses). */
export function rawToFetchRequest(raw: RawRequest, fallbackHost: string): Request {
  const headers = new Headers()
  for (const [name, value] of raw.headers) headers.append(name, value)
  const url = `http://${headers.get('host') ?? fallbackHost}${raw.target}`
  const hasBody = raw.method !== 'GET' && raw.method !== 'HEAD' && raw.body.length > 0
  return new Request(url, { method: raw.method, headers, ...(hasBody && { body: new Uint8Array(raw.body) }) })
}

async function collect(response: Response): Promise<{ headers: Record<string, string | string[]>; body: Buffer | undefined }> {
  const headers: Record<string, string | string[]> = {}
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers['set-cookie'] = cookies
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined
  if (response.status !== 204 && response.status !== 304 && response.status >= 200) headers['content-length'] = String(body?.length ?? 0)
  return { headers, body }
}

/** Writes a Fetch `Response` back through Node's `ServerResponse`. */
export async function writeFetchResponse(res: ServerResponse, response: Response): Promise<void> {
  const { headers, body } = await collect(response)
  res.writeHead(response.status, response.statusText || undefined, headers)
  res.end(body)
}

/** Writes a Fetch `Response` straight onto a socket (after a hand-read request). */
export async function writeRawResponse(socket: Socket, response: Response, close: boolean): Promise<void> {
  const { headers, body } = await collect(response)
  headers['date'] = new Date().toUTCString()
  headers['connection'] = close ? 'close' : 'keep-alive'
  let head = `HTTP/1.1 ${response.status} ${response.statusText || STATUS_CODES[response.status] || ''}\r\n`
  for (const [name, value] of Object.entries(headers)) {
    for (const v of [value].flat()) head += `${name}: ${v}\r\n`
  }
  socket.write(head + '\r\n')
  if (body && body.length > 0) socket.write(body)
}
