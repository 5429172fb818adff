/**
 * The proxy both `doppel record` and `doppel compare` run: every request goes to the upstream unchanged
 * (method including `LIST`, headers, body; `Host` too when a SigV4 signature covers it) and its answer
 * comes back; each exchange is handed on. Served through doppel's own node:http adapter, which reads the
 * `LIST` verb Node's parser refuses.
 */
import { readBodyBytes, BodyTooLargeError, jsonResponse } from '../../core/http.ts'
import type { Exchange } from './exchange.ts'
import { callUpstream } from './upstream-call.ts'
import { controlPath } from '../../services/control/urls.ts'

const STOP_PATH = controlPath('record/stop')

/**
 * The most a request or an answer may hold (64 MiB, above the registry's 50 MiB archives): a request past it
 * is refused with 413, an answer past it is a 502 to the client and a refused exchange; neither is buffered
 * past it.
 */
export const BODY_LIMIT = 64 * 1024 * 1024

/** Hop-by-hop headers: they describe the client's connection to the proxy, not the request. */
export const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'content-length', 'transfer-encoding', 'te', 'upgrade', 'proxy-connection'])

export interface ForwardingProxyOptions {
  upstream: string
  /** Called in order, before the client gets its answer (compare sends the request on to the emulator). */
  onExchange: (exchange: Exchange) => void | Promise<void>
  /** `POST /_doppel/record/stop`. */
  onStop: () => void
}

export function forwardingProxy(options: ForwardingProxyOptions): { handle(request: Request, handling?: { signal?: AbortSignal }): Promise<Response> } {
  const upstream = options.upstream.replace(/\/+$/, '')
  let queue: Promise<unknown> = Promise.resolve()
  // One exchange at a time, in arrival order: compare feeds the emulator the same sequence.
  const handOn = async (exchange: Exchange) => {
    const handed = queue.then(() => options.onExchange(exchange))
    queue = handed.catch(() => undefined)
    await handed
  }
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
      request.headers.forEach((value, name) => void requestHeaders.push([name, value]))
      const target = url.pathname + url.search
      const upstreamUrl = new URL(upstream + target)
      const signed = isSigV4Signed(requestHeaders, url.searchParams)
      const sent = requestHeaders.filter(([name]) => !HOP_BY_HOP.has(name) && (signed || name !== 'host'))
      if (!signed) sent.push(['host', upstreamUrl.host])
      // The length goes on whenever the client framed its body by one, 0 included: without it node:http sends an
      // empty PUT or POST chunked, which the upstream reads as a body (the IMDSv2 token request answered 415).
      if (body.length > 0 || request.headers.has('content-length')) sent.push(['content-length', String(body.length)])
      // A stopping server aborts the call: the client gets a 502, if still connected.
      const answer = await callUpstream({ method: request.method, url: upstreamUrl, headers: sent, body, limit: BODY_LIMIT, ...(handling.signal && { signal: handling.signal }) })
      const exchange: Exchange = { method: request.method, target, requestHeaders, requestBody: body, status: 0, responseHeaders: [], responseBody: Buffer.alloc(0) }
      if (!('status' in answer)) {
        const message = answer.reason === 'unreachable' ? `did not answer: ${answer.message}` : answer.message
        await handOn({ ...exchange, refused: `upstream ${message}` })
        return jsonResponse(502, { errors: [`doppel: upstream ${upstream} ${message}`] })
      }
      await handOn({ ...exchange, status: answer.status, responseHeaders: answer.headers, responseBody: answer.body })
      const empty = answer.status === 204 || answer.status === 304 || answer.body.length === 0
      const out = new Headers()
      for (const [name, value] of answer.headers) out.append(name, value)
      return new Response(empty ? null : new Uint8Array(answer.body), { status: answer.status, statusText: answer.statusText, headers: out })
    },
  }
}

/** A request signed with SigV4 (in its headers or presigned): its `Host` is part of what was signed. */
function isSigV4Signed(headers: readonly [string, string][], query: URLSearchParams): boolean {
  return query.has('X-Amz-Signature') || headers.some(([name, value]) => name === 'authorization' && /^AWS4-HMAC-SHA256\s/i.test(value))
}
