/**
 * What the journal keeps of an exchange: the request and the answer, headers and bodies redacted as they
 * are recorded (`services/control/redact.ts`) and each body cut at the journal's body limit, so no secret
 * and no large body is held.
 */
import type { JournalRequest, JournalResponse } from '../../core/journal.ts'
import { LightHeaders, LightRequest } from '../../core/light-request.ts'
import { LightResponse } from '../../core/light-response.ts'
import { redactBodyText, redactHeaderValue, redactPath } from '../../services/control/redact.ts'

/** The start of a body: at most `limit + 1` bytes, and how many were read. */
interface BodyStart {
  bytes: Uint8Array
  size: number
}

/** Where the journal reads a request's body from: the bytes as received, or the start of a real body being read. */
export type BodySource = Uint8Array | Promise<BodyStart> | undefined

/**
 * Taken before the service runs: the light request's bytes as received; for a real request, its clone's
 * start, read at once and that branch cancelled. Read later, it would hold the service up: a teed body's
 * cancel waits for both branches.
 */
export function requestBodySource(request: Request, limit: number): BodySource {
  if (request instanceof LightRequest) return request.receivedBody()
  if (request.body === null || request.bodyUsed) return undefined
  return readStart(request.clone(), limit).catch(() => ({ bytes: new Uint8Array(0), size: 0 }))
}

export async function journalRequest(request: Request, path: string, source: BodySource, limit: number): Promise<JournalRequest> {
  // The server's light headers are read from their raw list, without building a Headers.
  const raw = request.headers instanceof LightHeaders ? request.headers.rawList() : undefined
  const headers = keptHeaders(raw ? pairs(raw) : request.headers)
  const { body, truncated } = await boundedBody(source, headers['content-type'], limit)
  return { method: request.method, path: redactPath(path), headers, body: redactBodyText(body, path), truncated }
}

export async function journalResponse(response: Response, path: string, limit: number): Promise<JournalResponse> {
  const parts = response instanceof LightResponse ? response.parts() : undefined
  const headers = parts ? keptHeaders(Object.entries(parts.headers)) : keptHeaders(response.headers)
  const source = parts ? (typeof parts.body === 'string' ? parts.body : (parts.body ?? undefined)) : response.bodyUsed ? undefined : readStart(response.clone(), limit)
  const { body, truncated } = await boundedBody(source, headers['content-type'], limit)
  return { status: response.status, headers, body: redactBodyText(body, path), truncated }
}

function* pairs(raw: string[]): Generator<[string, string]> {
  for (let i = 0; i < raw.length; i += 2) yield [raw[i]!, raw[i + 1]!]
}

/** Header names lower-cased, repeated names joined with ", " (as `Headers.get` reads them), values redacted. */
function keptHeaders(headers: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of headers) {
    const lower = name.toLowerCase()
    const kept = redactHeaderValue(lower, value)
    out[lower] = Object.hasOwn(out, lower) ? `${out[lower]}, ${kept}` : kept
  }
  return out
}

/** Media types whose bodies are kept as text; any other body is kept as its size. */
const TEXT_TYPE = /^(text\/|application\/([\w.+-]*\+)?(json|xml|x-www-form-urlencoded|yaml|x-yaml|problem\+json))|^$/i

async function boundedBody(source: BodySource | string, type: string | undefined, limit: number): Promise<{ body: string; truncated: boolean }> {
  if (source === undefined) return { body: '', truncated: false }
  if (typeof source === 'string') {
    if (source.length <= limit / 4 || Buffer.byteLength(source) <= limit) return { body: source, truncated: false }
    return { body: cutText(Buffer.from(source), limit), truncated: true }
  }
  const { bytes, size } = source instanceof Uint8Array ? { bytes: source.subarray(0, limit + 1), size: source.byteLength } : await source
  if (bytes.byteLength === 0) return { body: '', truncated: false }
  const text = TEXT_TYPE.test((type ?? '').split(';')[0]!.trim()) ? utf8(bytes.subarray(0, limit)) : undefined
  if (text === undefined) return { body: `<${size} bytes of ${type || 'binary data'}>`, truncated: false }
  return { body: text, truncated: bytes.byteLength > limit }
}

/** The first `limit` bytes as text (a split character dropped); a new string, so the body is not kept alive. */
function cutText(bytes: Uint8Array, limit: number): string {
  return utf8(bytes.subarray(0, limit)) ?? ''
}

/** UTF-8 text, a character split at the end dropped; undefined for bytes that are not UTF-8 (kept as their size). */
function utf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true })
  } catch {
    return undefined
  }
}

/** Up to `limit + 1` bytes of a body, the stream cancelled there; `size` what was read. */
async function readStart(body: Request | Response, limit: number): Promise<BodyStart> {
  const reader = body.body?.getReader()
  if (reader === undefined) return { bytes: new Uint8Array(0), size: 0 }
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size <= limit) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.byteLength
    }
  } finally {
    void reader.cancel().catch(() => undefined)
  }
  return { bytes: Buffer.concat(chunks).subarray(0, limit + 1), size }
}
