/**
 * What the journal keeps of an exchange: the request and the answer, each body cut at the journal's body
 * limit as it is recorded, so no large body is held. Headers and bodies are redacted
 * (`services/control/redact.ts`) and decoded when the journal is read, so a request pays only for keeping
 * them; what a reader sees never holds a secret.
 */
import type { JournalRequest, JournalResponse } from '../../core/journal.ts'
import { LightHeaders, LightRequest } from '../../core/light-request.ts'
import { LightResponse } from '../../core/light-response.ts'
import { redactBodyText, redactHeaderValue, redactPath } from '../../services/control/index.ts'

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

/** A part of an exchange as the journal keeps it until read, and about how many bytes that takes (for the journals' byte budget). */
export type KeptPart<T> = (() => T) & { bytes: number }

export async function journalRequest(request: Request, path: string, source: BodySource, limit: number): Promise<KeptPart<JournalRequest>> {
  // The server's light headers are kept as their raw list, without building a Headers.
  const raw = (request.headers instanceof LightHeaders ? request.headers.rawList() : undefined) ?? [...request.headers].flat()
  const kept = await keptBytes(source, limit)
  // Only these are kept: the closure must not hold the request (or its whole body) alive.
  const { method } = request
  const read = () => {
    const headers = keptHeaders(pairs(raw))
    const { body, truncated } = boundedBody(kept, headers['content-type'], limit)
    return { method, path: redactPath(path), headers, body: redactBodyText(body, path), truncated }
  }
  return Object.assign(read, { bytes: keptSize(raw, kept) + path.length })
}

export async function journalResponse(response: Response, path: string, limit: number): Promise<KeptPart<JournalResponse>> {
  const parts = response instanceof LightResponse ? response.parts() : undefined
  const raw = parts ? Object.entries(parts.headers).flat() : [...response.headers].flat()
  const source = parts ? (typeof parts.body === 'string' ? parts.body : (parts.body ?? undefined)) : response.bodyUsed ? undefined : readStart(response.clone(), limit)
  const kept = typeof source === 'string' ? keptText(source, limit) : await keptBytes(source, limit)
  const { status } = response
  const read = () => {
    const headers = keptHeaders(pairs(raw))
    const { body, truncated } = boundedBody(kept, headers['content-type'], limit)
    return { status, headers, body: redactBodyText(body, path), truncated }
  }
  return Object.assign(read, { bytes: keptSize(raw, kept) })
}

/** About the bytes a kept part holds: its raw headers and its kept body (a string counted as one byte a character). */
function keptSize(raw: readonly string[], kept: Kept): number {
  let bytes = 0
  for (const item of raw) bytes += item.length
  if (typeof kept === 'string') bytes += kept.length
  else if (kept !== undefined) bytes += 'text' in kept ? kept.text.length : kept.bytes.byteLength
  return bytes
}

/** A body as kept until the journal is read: text (cut at the limit), or up to `limit + 1` bytes and the size it had. */
type Kept = string | { text: string; truncated: true } | { bytes: Uint8Array; size: number } | undefined

/**
 * A copy of at most `limit + 1` bytes in a buffer of its own: a view would keep alive what it views (the
 * rest of a large body, or the whole pooled slab a small Buffer is cut from).
 */
async function keptBytes(source: BodySource, limit: number): Promise<Kept> {
  if (source === undefined) return undefined
  const { bytes, size } = source instanceof Uint8Array ? { bytes: source, size: source.byteLength } : await source
  return { bytes: new Uint8Array(bytes.subarray(0, limit + 1)), size }
}

/** Text kept whole up to the limit, else its first `limit` bytes as a new string. */
function keptText(text: string, limit: number): Kept {
  if (text.length <= limit / 4 || Buffer.byteLength(text) <= limit) return text
  return { text: cutText(Buffer.from(text), limit), truncated: true }
}

function* pairs(raw: readonly string[]): Generator<[string, string]> {
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

function boundedBody(kept: Kept, type: string | undefined, limit: number): { body: string; truncated: boolean } {
  if (kept === undefined) return { body: '', truncated: false }
  if (typeof kept === 'string') return { body: kept, truncated: false }
  if ('text' in kept) return { body: kept.text, truncated: true }
  const { bytes, size } = kept
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
