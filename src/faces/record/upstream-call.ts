/**
 * One call to the upstream over node:http(s), not fetch: fetch replaces `Host` and adds headers of its own
 * (`accept-encoding`, `accept-language`, …), which breaks a SigV4 signature covering them. The answer is
 * read up to a limit and never buffered past it.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'

export interface ProxiedAnswer {
  status: number
  statusText: string
  /** As received, minus the ones that describe the wire (length, encoding, connection). */
  headers: [string, string][]
  /** Decoded when the upstream compressed it. */
  body: Buffer
}

/** Why the upstream gave no usable answer: the client gets a 502 saying so. */
export interface UpstreamFailure {
  reason: 'unreachable' | 'too-large' | 'broken'
  message: string
}

export interface UpstreamRequest {
  method: string
  /** Full URL of the upstream resource. */
  url: URL
  headers: [string, string][]
  body: Buffer
  limit: number
  signal?: AbortSignal
}

/** Headers that describe the bytes on this connection, not the answer. */
const WIRE_HEADERS = new Set(['content-length', 'transfer-encoding', 'content-encoding', 'connection', 'keep-alive'])

export function callUpstream(call: UpstreamRequest): Promise<ProxiedAnswer | UpstreamFailure> {
  return new Promise((resolve) => {
    let settled = false
    const settle = (value: ProxiedAnswer | UpstreamFailure) => {
      if (settled) return
      settled = true
      resolve(value)
    }
    const send = call.url.protocol === 'https:' ? httpsRequest : httpRequest
    const outgoing = send(call.url, {
      method: call.method,
      // Raw pairs: names and repeated headers exactly as the client sent them.
      headers: call.headers.flat(),
      ...(call.signal && { signal: call.signal }),
    })
    // Aborted by the server's stop: say why (the signal's reason), not node:http's generic AbortError.
    outgoing.on('error', (error) => settle({ reason: 'unreachable', message: errorText(call.signal?.aborted ? call.signal.reason : error) }))
    outgoing.on('response', (answer) => readAnswer(answer, call.limit).then(settle))
    outgoing.end(call.body.length > 0 ? call.body : undefined)
  })
}

function readAnswer(answer: IncomingMessage, limit: number): Promise<ProxiedAnswer | UpstreamFailure> {
  return new Promise((resolve) => {
    const declared = Number(answer.headers['content-length'])
    if (Number.isFinite(declared) && declared > limit) {
      answer.destroy()
      return resolve(tooLarge(limit))
    }
    const chunks: Buffer[] = []
    let size = 0
    answer.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        answer.destroy()
        return resolve(tooLarge(limit))
      }
      chunks.push(chunk)
    })
    // An upstream that resets mid-body: `aborted`/`error` before `end`.
    answer.on('error', (error) => resolve({ reason: 'broken', message: `the answer broke off: ${errorText(error)}` }))
    answer.on('close', () => {
      if (!answer.complete) resolve({ reason: 'broken', message: 'the answer broke off before its end' })
    })
    answer.on('end', () => {
      const encoding = String(answer.headers['content-encoding'] ?? 'identity').trim().toLowerCase()
      let body: Buffer
      try {
        body = decode(Buffer.concat(chunks, size), encoding, limit)
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        return resolve(code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError ? tooLarge(limit) : { reason: 'broken', message: `cannot decode its ${encoding} body` })
      }
      const headers: [string, string][] = []
      for (let i = 0; i < answer.rawHeaders.length; i += 2) {
        const name = answer.rawHeaders[i]!
        if (!WIRE_HEADERS.has(name.toLowerCase())) headers.push([name, answer.rawHeaders[i + 1]!])
      }
      resolve({ status: answer.statusCode ?? 502, statusText: answer.statusMessage ?? '', headers, body })
    })
  })
}

/** A compressed answer is recorded and passed on decoded, never past the limit once decoded. */
function decode(body: Buffer, encoding: string, limit: number): Buffer {
  const options = { maxOutputLength: limit }
  if (encoding === 'identity' || body.length === 0) return body
  if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(body, options)
  if (encoding === 'deflate') return inflateSync(body, options)
  if (encoding === 'br') return brotliDecompressSync(body, options)
  throw new Error(`unknown encoding ${encoding}`)
}

function tooLarge(limit: number): UpstreamFailure {
  return { reason: 'too-large', message: `its answer is over ${limit} bytes, the most doppel record holds` }
}

function errorText(error: Error): string {
  return error.message || ((error as NodeJS.ErrnoException).code ?? 'unknown error')
}
