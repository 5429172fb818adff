/**
 * The proxy both `doppel record` and `doppel compare` run: every request goes to the upstream unchanged
 * (method including `LIST`, headers, body) and its answer comes back; each exchange is handed on.
 * Served through doppel's own node:http adapter, which reads the `LIST` verb Node's parser refuses.
 */
import { readBodyBytes, BodyTooLargeError, jsonResponse } from '../../core/http.ts'
import type { Exchange } from './exchange.ts'

export const STOP_PATH = '/_doppel/record/stop'

/** Bodies above this are refused (413) rather than buffered. */
const BODY_LIMIT = 64 * 1024 * 1024

/** Hop-by-hop headers, and those fetch sets itself for the upstream connection. */
export const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'te', 'upgrade', 'proxy-connection', 'accept-encoding'])

/** fetch has already decoded the body, so these would describe bytes the client never gets. */
const DECODED_RESPONSE = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'])

export interface ForwardingProxyOptions {
  upstream: string
  /** Called in order, before the client gets its answer (compare sends the request on to the emulator). */
  onExchange: (exchange: Exchange) => void | Promise<void>
  /** `POST /_doppel/record/stop`. */
  onStop: () => void
  fetch?: typeof globalThis.fetch
}

export function forwardingProxy(options: ForwardingProxyOptions): { handle(request: Request, handling?: { signal?: AbortSignal }): Promise<Response> } {
  const upstream = options.upstream.replace(/\/+$/, '')
  const fetchImpl = options.fetch ?? globalThis.fetch
  let queue: Promise<unknown> = Promise.resolve()
  return {
    async handle(request, handling = {}) {
      const url = new URL(request.url)
      if (url.pathname === STOP_PATH) {
        if (request.method !== 'POST') return jsonResponse(405, { errors: ['unsupported operation'] })
        setImmediate(options.onStop)
        return jsonResponse(202, { stopping: true })
      }
      let body: Buffer
      try {
        body = Buffer.from(await readBodyBytes(request, BODY_LIMIT))
      } catch (error) {
        if (error instanceof BodyTooLargeError) return jsonResponse(413, { errors: ['request body too large'] })
        throw error
      }
      const requestHeaders: [string, string][] = []
      const headers = new Headers()
      request.headers.forEach((value, name) => {
        requestHeaders.push([name, value])
        if (!HOP_BY_HOP.has(name)) headers.append(name, value)
      })
      const target = url.pathname + url.search
      let answer: Response
      let responseBody: Buffer
      try {
        answer = await fetchImpl(upstream + target, {
          method: request.method,
          headers,
          redirect: 'manual',
          // A stopping server aborts the call: the client gets the 502 below, if still connected.
          ...(handling.signal && { signal: handling.signal }),
          ...(body.length > 0 && request.method !== 'GET' && request.method !== 'HEAD' && { body: new Uint8Array(body) }),
        })
        responseBody = Buffer.from(await answer.arrayBuffer())
      } catch (error) {
        const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message
        return jsonResponse(502, { errors: [`doppel: upstream ${upstream} did not answer: ${cause}`] })
      }
      const responseHeaders: [string, string][] = []
      const out = new Headers()
      answer.headers.forEach((value, name) => {
        if (DECODED_RESPONSE.has(name)) return
        responseHeaders.push([name, value])
        if (name !== 'set-cookie') out.append(name, value)
      })
      for (const cookie of answer.headers.getSetCookie()) out.append('set-cookie', cookie)
      const exchange: Exchange = { method: request.method, target, requestHeaders, requestBody: body, status: answer.status, responseHeaders, responseBody }
      // One exchange at a time, in arrival order: compare feeds the emulator the same sequence.
      const handed = queue.then(() => options.onExchange(exchange))
      queue = handed.catch(() => undefined)
      await handed
      const empty = answer.status === 204 || answer.status === 304 || responseBody.length === 0
      return new Response(empty ? null : new Uint8Array(responseBody), { status: answer.status, statusText: answer.statusText, headers: out })
    },
  }
}
