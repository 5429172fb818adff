import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import { LIST_ALIAS } from './list-verb.ts'

/** Turns a Node request into a Fetch `Request`, keeping repeated headers and the Host as received. */
export function toFetchRequest(req: IncomingMessage, fallbackHost: string): Request {
  const headers = new Headers()
  const raw = req.rawHeaders
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!)
  const method = req.method === LIST_ALIAS ? 'LIST' : req.method ?? 'GET'
  const url = `http://${req.headers.host ?? fallbackHost}${req.url ?? '/'}`
  const hasBody = method !== 'GET' && method !== 'HEAD'
  return new Request(url, {
    method,
    headers,
    ...(hasBody && { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' }),
  } as RequestInit)
}

/** Writes a Fetch `Response` back to Node, streaming the body. */
export async function writeFetchResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {}
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return
    headers[name] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers['set-cookie'] = cookies
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined
  if (body && response.status !== 204 && response.status !== 304) headers['content-length'] = String(body.length)
  res.writeHead(response.status, response.statusText || undefined, headers)
  res.end(body)
}
