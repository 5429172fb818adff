import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { setTimeout as sleep } from 'node:timers/promises'
import { DoppelError } from '../../../core/doppel-error.ts'
/**
 * The auth service's real outgoing HTTP, used only for a `config/client` endpoint override that names
 * neither the fake cloud nor doppel itself (set by a management-token holder). Bounded: a timeout per
 * attempt, a response-size cap, `max_retries` retries on connection errors, 429 and 5xx but 501
 * (docs/reference/cloud-auth.md §5 C.6), redirects not followed.
 */

export interface UpstreamOptions {
  maxRetries: number
  /** Waits between attempts: `min * 2^n`, capped at `max` (the real service's backoff, 500 ms to 30 s). */
  backoff: { minMs: number; maxMs: number }
  /** The server's shutdown: aborts the attempt under way and the waits, and sends no further one. */
  signal?: AbortSignal
}

export interface UpstreamAnswer {
  status: number
  headers: Headers
  body: string
}


/** Why no answer came: the request's method, URL, attempts, and the Go-style reason of the last failure. */
export class UpstreamError extends DoppelError {
  override name = 'UpstreamError'
  readonly method: string
  readonly url: string
  readonly attempts: number
  readonly reason: string
  constructor(method: string, url: string, attempts: number, reason: string) {
    super('DOPPEL_UPSTREAM_FAILED', `${method} ${JSON.stringify(url)}: ${reason}`)
    this.method = method
    this.url = url
    this.attempts = attempts
    this.reason = reason
  }
}

const UPSTREAM_TIMEOUT_MS = 10_000
const UPSTREAM_MAX_BYTES = 1024 * 1024
/** Go's words for a request whose context was cancelled (here: the server stopped). */
const CANCELED = 'context canceled'

/** Sends `init` to `url`, retrying as configured; resolves with the last answer, rejects with UpstreamError. */
export async function sendUpstream(url: string, init: { method: string; headers: Headers; body?: string }, options: UpstreamOptions): Promise<UpstreamAnswer> {
  const { signal } = options
  let reason = ''
  for (let attempts = 1; ; attempts++) {
    let answer: UpstreamAnswer | undefined
    try {
      answer = await attempt(url, init, signal)
    } catch (error) {
      reason = describeFailure(error, url)
    }
    if (answer !== undefined && !isRetryable(answer.status)) return answer
    // A stopping server ends the retries: the last failure stands, as after the last retry.
    if (attempts <= options.maxRetries && !signal?.aborted) {
      const wait = Math.min(options.backoff.minMs * 2 ** (attempts - 1), options.backoff.maxMs)
      await sleep(wait, undefined, signal && { signal }).catch(() => undefined)
      if (!signal?.aborted) continue
    }
    if (answer !== undefined) return answer
    throw new UpstreamError(init.method, url, attempts, reason)
  }
}

export function isRetryable(status: number): boolean {
  return status === 429 || (status >= 500 && status !== 501)
}

/**
 * One attempt through node:http(s), which (unlike fetch) sends the `Host` header given: a replayed signed
 * request must name the host the client signed (docs/reference/cloud-auth.md §5 C.2).
 */
function attempt(url: string, init: { method: string; headers: Headers; body?: string }, signal: AbortSignal | undefined): Promise<UpstreamAnswer> {
  const target = new URL(url)
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest
  const headers: Record<string, string> = {}
  init.headers.forEach((value, name) => (headers[name] = value))
  return new Promise((resolve, reject) => {
    const request = send(target, { method: init.method, headers, timeout: UPSTREAM_TIMEOUT_MS, ...(signal && { signal }) }, (response) => {
      const chunks: Buffer[] = []
      let size = 0
      response.on('data', (chunk: Buffer) => {
        size += chunk.byteLength
        if (size > UPSTREAM_MAX_BYTES) {
          response.destroy()
          reject(new ResponseTooLarge())
        } else chunks.push(chunk)
      })
      response.on('error', reject)
      response.on('end', () => {
        const answerHeaders = new Headers()
        for (let i = 0; i + 1 < response.rawHeaders.length; i += 2) answerHeaders.append(response.rawHeaders[i]!, response.rawHeaders[i + 1]!)
        resolve({ status: response.statusCode ?? 0, headers: answerHeaders, body: Buffer.concat(chunks).toString('utf8') })
      })
    })
    request.on('timeout', () => request.destroy(new UpstreamTimeout()))
    request.on('error', reject)
    request.end(init.body)
  })
}

class UpstreamTimeout extends DoppelError {
  override name = 'TimeoutError'
  constructor() {
    super('DOPPEL_UPSTREAM_TIMEOUT', '')
  }
}

class ResponseTooLarge extends DoppelError {
  override name = 'ResponseTooLarge'
  constructor() {
    super('DOPPEL_UPSTREAM_TOO_LARGE', `response body larger than ${UPSTREAM_MAX_BYTES} bytes`)
  }
}

/** A failed attempt as Go's HTTP client words it. */
function describeFailure(error: unknown, url: string): string {
  const code = (error as { code?: string }).code
  const host = new URL(url).host
  if ((error as Error).name === 'TimeoutError') return 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)'
  if (error instanceof ResponseTooLarge) return error.message
  if ((error as Error).name === 'AbortError') return CANCELED
  switch (code) {
    case 'ECONNREFUSED':
      return `dial tcp ${host}: connect: connection refused`
    case 'ENOTFOUND':
      return `dial tcp: lookup ${new URL(url).hostname}: no such host`
    case 'ECONNRESET':
      return 'connection reset by peer'
    default:
      return error instanceof Error ? error.message : String(error)
  }
}
