import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'

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
