/**
 * What the journal keeps of an exchange: the request and the answer, each body cut at the journal's body
 * limit as it is recorded, so no large body is held. Headers and bodies are redacted
 * (`services/control/redact.ts`) and decoded when the journal is read, so a request pays only for keeping
 * them; what a reader sees never holds a secret.
 */
import type { JournalRequest, JournalResponse, Unread } from '../../core/journal.ts'
import { bodyAsRead } from '../../core/http.ts'
import { LightHeaders, LightRequest } from '../../core/light-request.ts'
import { LightResponse } from '../../core/light-response.ts'
import { redactBodyText, redactHeaderValue, redactPath } from '../../services/control/index.ts'

/** The start of a body: at most `limit + 1` bytes, and how many were read. */
interface BodyStart {
  bytes: Uint8Array
  size: number
}

/**
 * A part of an exchange as the journal keeps it until read, and about how many bytes that takes (for the
 * journals' byte budget).
 */
export type KeptPart<T> = Unread<T> & { readonly bytes: number }

/**
 * Where the request's body comes from, after the service answered: the light request's bytes as received;
 * what the service read of a real body (`readBodyBytes` keeps it on the request); else, when nobody read
 * it, its start read now. Nothing is teed up front: a tee costs every request with a body, read or not.
 */
function requestBodyStart(request: Request, limit: number): BodyStart | Promise<BodyStart> | undefined {
  if (request instanceof LightRequest) {
    const bytes = request.receivedBody()
    return bytes && { bytes, size: bytes.byteLength }
  }
  const read = bodyAsRead(request)
  if (read !== undefined) return { bytes: headOf(read.chunks, limit + 1), size: read.size }
  if (request.body === null || request.bodyUsed) return undefined
  return readStart(request, limit).catch(() => ({ bytes: new Uint8Array(0), size: 0 }))
}

/**
 * The request as the journal keeps it until read; a promise only when the start of a body nobody read
 * must be read first. `withBody` false keeps no body (a refusal before any service saw the request).
 */
export function journalRequest(request: Request, path: string, limit: number, withBody = true): KeptPart<JournalRequest> | Promise<KeptPart<JournalRequest>> {
  // The server's light headers are kept as their raw list, without building a Headers.
  const raw = (request.headers instanceof LightHeaders ? request.headers.rawList() : undefined) ?? flatHeaders(request.headers)
  const { method } = request
  const start = withBody ? requestBodyStart(request, limit) : undefined
  // Only these are kept: nothing may hold the request (or its whole body) alive.
  const kept = (body: BodyStart | undefined) => new KeptRequest(method, path, raw, body && keptBytes(body, limit), limit)
  return start instanceof Promise ? start.then(kept) : kept(start)
}

/**
 * A request or an answer as the journal keeps it until read: its raw headers and the start of its body,
 * redacted and decoded by `read()`. An object, not a closure over the same values: the journal holds a
 * thousand of them, and keeping closures (a function and its contexts each) cost the server 3–11% of its
 * CPU for a GET or POST role, in garbage collection (docs/performance.md "What the journal's entries cost").
 */
abstract class KeptMessage {
  readonly bytes: number
  protected readonly path: string
  readonly #raw: RawHeaders | string
  readonly #body: Kept
  readonly #limit: number

  /** `extra`: bytes the part holds besides its headers and body. */
  constructor(path: string, raw: RawHeaders, body: Kept, limit: number, extra: number) {
    this.path = path
    this.#raw = isList(raw) ? joined(raw) : raw
    this.#body = body
    this.#limit = limit
    this.bytes = keptSize(this.#raw, body) + extra
  }

  /** The headers and the body as a reader sees them: redacted, the body decoded and bounded. */
  protected shown(): { headers: Record<string, string>; body: string; truncated: boolean } {
    const raw = this.#raw
    const headers = keptHeaders(pairs(typeof raw === 'string' ? (raw === '' ? [] : raw.split(SEPARATOR)) : raw))
    const { body, truncated } = boundedBody(this.#body, headers['content-type'], this.#limit)
    return { headers, body: redactBodyText(body, this.path), truncated }
  }
}

/** What a kept header list is joined with: no HTTP header name or value holds it. */
const SEPARATOR = '\n'

/**
 * A header list as one string, one object to keep instead of one per name and value (3–7% of the
 * server's CPU for a CRUD request); the list itself should a value hold the separator, so no value is ever
 * read under another's name.
 */
function joined(raw: readonly string[]): string | readonly string[] {
  for (const item of raw) if (item.includes(SEPARATOR)) return raw
  return raw.join(SEPARATOR)
}

class KeptRequest extends KeptMessage implements KeptPart<JournalRequest> {
  readonly #method: string

  constructor(method: string, path: string, raw: RawHeaders, body: Kept, limit: number) {
    super(path, raw, body, limit, path.length)
    this.#method = method
  }

  read(): JournalRequest {
    return { method: this.#method, path: redactPath(this.path), ...this.shown() }
  }
}

class KeptResponse extends KeptMessage implements KeptPart<JournalResponse> {
  readonly #status: number

  constructor(status: number, path: string, raw: RawHeaders, body: Kept, limit: number) {
    super(path, raw, body, limit, 0)
    this.#status = status
  }

  read(): JournalResponse {
    return { status: this.#status, ...this.shown() }
  }
}

/** The answer as the journal keeps it until read; a promise only for a real Response whose body must be read. */
export function journalResponse(response: Response, path: string, limit: number): KeptPart<JournalResponse> | Promise<KeptPart<JournalResponse>> {
  const parts = response instanceof LightResponse ? response.parts() : undefined
  // A light answer's header record is kept as it is (usually a service's constant), not copied.
  const raw = parts ? parts.headers : flatHeaders(response.headers)
  const { status } = response
  const kept = (body: Kept) => new KeptResponse(status, path, raw, body, limit)
  if (parts) {
    const { body } = parts
    return kept(typeof body === 'string' ? keptText(body, limit) : body ? keptBytes({ bytes: body, size: body.byteLength }, limit) : undefined)
  }
  if (response.bodyUsed) return kept(undefined)
  return readStart(response.clone(), limit).then((start) => kept(keptBytes(start, limit)))
}

/** Headers as kept: a flat name/value list, or a light answer's record. */
type RawHeaders = readonly string[] | Readonly<Record<string, string>>

const isList = (raw: RawHeaders): raw is readonly string[] => Array.isArray(raw)

/** A Headers' names and values as one flat list (without a pair array for each). */
function flatHeaders(headers: Headers): string[] {
  const raw: string[] = []
  headers.forEach((value, name) => raw.push(name, value))
  return raw
}

/**
 * About the bytes a kept part holds: its headers as kept (a joined list by its length) and its kept body (a
 * string counted as one byte a character).
 */
function keptSize(raw: RawHeaders | string, kept: Kept): number {
  let bytes = 0
  if (typeof raw === 'string') bytes += raw.length
  else if (isList(raw)) for (const item of raw) bytes += item.length
  else for (const name in raw) bytes += name.length + raw[name]!.length
  if (typeof kept === 'string') bytes += kept.length
  else if (kept !== undefined) bytes += 'text' in kept ? kept.text.length : kept.bytes.buffer.byteLength
  return bytes
}

/** A body as kept until the journal is read: text (cut at the limit), or up to `limit + 1` bytes and the size it had. */
type Kept = string | { text: string; truncated: true } | { bytes: Uint8Array; size: number } | undefined

/**
 * At most `limit + 1` bytes of a body. A view is kept as it is when it views about all of its buffer (a
 * small body as the server received it: no copy); else the start is copied into a buffer of its own, so
 * that the entry does not keep alive the rest of a large body, or the pooled slab a small Buffer is cut from.
 */
function keptBytes({ bytes, size }: BodyStart, limit: number): Kept {
  if (bytes.byteLength <= limit + 1 && bytes.buffer.byteLength - bytes.byteLength <= VIEW_SLACK) return { bytes, size }
  return { bytes: new Uint8Array(bytes.subarray(0, limit + 1)), size }
}

/** How many bytes beyond a kept view its buffer may hold (the request's head, read with a small body). */
const VIEW_SLACK = 4096

/** The first `count` bytes of a list of pieces (a view of the first piece when it holds them). */
function headOf(chunks: readonly Uint8Array[], count: number): Uint8Array {
  const first = chunks[0]
  if (first === undefined) return new Uint8Array(0)
  if (chunks.length === 1 || first.byteLength >= count) return first.subarray(0, count)
  const pieces: Uint8Array[] = []
  let size = 0
  for (const chunk of chunks) {
    if (size >= count) break
    pieces.push(chunk)
    size += chunk.byteLength
  }
  return Buffer.concat(pieces).subarray(0, count)
}

/** Text kept whole up to the limit, else its first `limit` bytes as a new string. */
function keptText(text: string, limit: number): Kept {
  if (text.length <= limit / 4 || Buffer.byteLength(text) <= limit) return text
  return { text: cutText(Buffer.from(text), limit), truncated: true }
}

function* pairs(raw: RawHeaders): Generator<[string, string]> {
  if (!isList(raw)) return yield* Object.entries(raw)
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

/** Up to `limit + 1` bytes of a body nobody else reads, the stream cancelled there; `size` what was read. */
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
