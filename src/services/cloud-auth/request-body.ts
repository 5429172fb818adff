import { checkJsonDepth, JsonScan, SERVICE_ENTRY_LIMITS, SERVICE_NESTING_LIMIT } from '../../core/bounded-parse.ts'
import { goMapUnmarshalError, readGoJsonValue, BODY_TOO_LARGE } from '../../core/go/go-json-read.ts'
import { parseGoMediaType } from '../../core/go/go-mime.ts'
import { goUtf8 } from '../../core/go/go-utf8.ts'
import { setOwnField } from '../../core/own-field.ts'
import { BodyTooLargeError, MAX_BODY_BYTES, readBodyBytes, readBodyUpTo } from '../../core/http.ts'
import { AuthRefusal } from './auth-refusal.ts'
import { checkJsonLimits, type JsonLimits, type JsonLimitsRefusal } from './listener-json-limits.ts'

/** A request body the service cannot read: 400 `error parsing JSON`, or 413 when over the size limit. */
class RequestDataError extends AuthRefusal {
  override name = 'RequestDataError'
  constructor(message: string, status = 400) {
    super(message, status, 'DOPPEL_INVALID_REQUEST_DATA')
  }
}

const JSON_ERROR = 'error parsing JSON'
const FORM_ERROR = 'error parsing form data'

/** A body the listener read and checked (the vault profile), kept on the request for its operation's data. */
const LISTENER_BODY = Symbol('doppel.listenerBody')

interface ListenerBody {
  /** The body, or its first bytes up to the size limit. */
  bytes: Uint8Array
  /** The body went on past the size limit. */
  over: boolean
}

interface ListenedRequest {
  [LISTENER_BODY]?: ListenerBody
}

/**
 * Vault 1.21's listener, before any handler: the body read up to its size limit and checked against the
 * JSON limits (`listener-json-limits.ts`). Returns the check's refusal, or undefined; the body stays on the
 * request, and the operation's data is read from it as Vault's HTTP layer reads it.
 */
export async function checkListenerBody(request: Request, limits: JsonLimits): Promise<JsonLimitsRefusal | undefined> {
  const body = await readBodyUpTo(request, MAX_BODY_BYTES)
  ;(request as ListenedRequest)[LISTENER_BODY] = body
  return checkJsonLimits(body.bytes, limits, body.over)
}

/**
 * The request data of a write: a JSON object or a form-encoded body; an empty body is `{}`.
 * JSON numbers arrive as their exact source text (as the real service decodes with `UseNumber`), so
 * `1.0` stays `"1.0"`; the field converters treat them as Go does. `patch`: a merge patch's body, whose
 * JSON errors Vault words without detail.
 */
export async function readRequestData(request: Request, patch = false): Promise<Record<string, unknown>> {
  const contentType = request.headers.get('content-type') ?? ''
  const listened = (request as ListenedRequest)[LISTENER_BODY]
  if (listened) return listenedData(listened, contentType, patch)
  const bounds = new BodyBounds(contentType)
  let bytes: Uint8Array
  try {
    // Bounds are checked as the body arrives: one past them is refused before it is read whole, decoded or parsed.
    bytes = await readBodyBytes(request, undefined, bounds.check)
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new RequestDataError(JSON_ERROR, 413)
    if (error instanceof RequestDataError) throw error
    throw new RequestDataError(JSON_ERROR)
  }
  return isForm(bytes, contentType) ? parseForm(bytes) : parseJsonObject(bytes, bounds.jsonEnd)
}

/**
 * The data of a body the listener checked, as Vault 1.21's HTTP layer reads it (`http/logical.go`): a form,
 * or the first JSON value through Go's decoder, whose error is passed on (`error parsing JSON: failed to
 * parse JSON input: <error>`; a merge patch's plain). Reading past the size limit is 413.
 */
export function listenedData({ bytes, over }: ListenerBody, contentType: string, patch: boolean): Record<string, unknown> {
  const refuse = (message: string, tooLarge: boolean) => new RequestDataError(message, tooLarge ? 413 : 400)
  if (!patch && isForm(bytes, contentType)) {
    if (over) throw refuse(FORM_ERROR, true)
    return parseForm(bytes)
  }
  const read = readGoJsonValue(bytes, over)
  if (read.kind === 'none') return {}
  const error = read.kind === 'error' ? read.message : goMapUnmarshalError(bytes[read.start]!)
  if (error !== undefined) throw refuse(patch ? JSON_ERROR : `${JSON_ERROR}: failed to parse JSON input: ${error}`, error === BODY_TOO_LARGE)
  // An object, or `null` (no data).
  const { start, end } = read as { start: number; end: number }
  return bytes[start] === OPEN_BRACE ? (parseKeepingNumbers(decodeJson(bytes.subarray(start, end))) as Record<string, unknown>) : {}
}

/** A JSON number as written, told apart from a string (Go's decoder types fields by the literal). */
export class GoJsonNumber {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}

/**
 * The first JSON value of a body the listener read, as Go's decoder reads it for a struct (the vault
 * profile's `sys/init`): the value, numbers as `GoJsonNumber` (`undefined` for no body), or the decoder's error.
 */
export async function listenedJson(request: Request): Promise<{ value: unknown } | { error: string }> {
  const { bytes, over } = (request as ListenedRequest)[LISTENER_BODY] ?? (await readBodyUpTo(request, MAX_BODY_BYTES))
  const read = readGoJsonValue(bytes, over)
  if (read.kind === 'none') return { value: undefined }
  if (read.kind === 'error') return { error: read.message }
  const text = decodeJson(bytes.subarray(read.start, read.end))
  return { value: JSON.parse(text, (_key, value: unknown, context?: { source?: string }) => (typeof value === 'number' ? new GoJsonNumber(context!.source!) : value)) }
}

/**
 * The body's bounds, piece by piece: a form's fields, or the JSON object's nesting and entries
 * (SERVICE_ENTRY_LIMITS: the real service's listener bounds JSON the same way; a form holds no more fields
 * than one JSON collection may). Which one is decided as `isForm` decides, piece by piece. The JSON scan
 * also finds where the first value closes, so the parse does not scan again.
 */
class BodyBounds {
  #kind: 'json' | 'form' | undefined
  readonly #json = new JsonScan(SERVICE_NESTING_LIMIT, SERVICE_ENTRY_LIMITS)
  /** Bytes seen before the current piece. */
  #offset = 0
  #fields = 0
  #inField = false
  /** Where the first JSON value closed in the whole body (just past its last byte), or -1. */
  jsonEnd = -1

  constructor(contentType: string) {
    if (!namesForm(contentType)) this.#kind = 'json'
  }

  readonly check = (piece: Uint8Array): void => {
    const offset = this.#offset
    this.#offset += piece.length
    if (this.#kind === undefined) {
      this.#kind = sniffHead(piece, offset)
      if (this.#kind === undefined) return
    }
    if (this.#kind === 'json') {
      let end: number
      try {
        end = this.#json.push(piece)
      } catch {
        throw new RequestDataError(JSON_ERROR)
      }
      if (end !== -1) this.jsonEnd = offset + end
      return
    }
    for (let at = 0; at < piece.length; ) {
      let end = piece.indexOf(AMPERSAND, at)
      if (end === -1) end = piece.length
      if (end > at && !this.#inField && ++this.#fields > SERVICE_ENTRY_LIMITS.perCollection) throw new RequestDataError(FORM_ERROR)
      this.#inField = end === piece.length ? this.#inField || end > at : false
      at = end + 1
    }
  }
}

// Stateless between calls (no `stream` option), so one decoder of each serves every request.
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true })
const STRICT_UTF8 = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true })
const decode = (bytes: Uint8Array) => UTF8.decode(bytes)

/** JSON text as Go's decoder reads its strings: a byte that starts no UTF-8 is U+FFFD on its own. */
function decodeJson(bytes: Uint8Array): string {
  try {
    return STRICT_UTF8.decode(bytes)
  } catch {
    return goUtf8(bytes)
  }
}
const isSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d
const AMPERSAND = 0x26
const OPEN_BRACE = 0x7b
const OPEN_BRACKET = 0x5b
/** `null`, which the real service reads as no data. */
const NULL = [0x6e, 0x75, 0x6c, 0x6c]

const FORM_TYPE = 'application/x-www-form-urlencoded'
/** How much of a body Vault looks at to tell a form from JSON: `Peek(512)` in `http/logical.go`. */
const HEAD_BYTES = 512

/**
 * The Content-Type names a form as Go's `mime.ParseMediaType` reads it: one it cannot parse names none. One
 * that does not hold the form's type in any case is not parsed (a login's cost).
 */
function namesForm(contentType: string): boolean {
  if (!contentType.toLowerCase().includes(FORM_TYPE)) return false
  const parsed = parseGoMediaType(contentType)
  return 'mediaType' in parsed && parsed.mediaType === FORM_TYPE
}

/**
 * What a body of a form's Content-Type is, from a piece of it that starts `offset` bytes in: JSON when its
 * first byte other than white space within the head is `{` or `[`, a form at any other byte or past the
 * head, undefined while the head has shown white space alone.
 */
function sniffHead(piece: Uint8Array, offset: number): 'json' | 'form' | undefined {
  const end = Math.min(piece.length, HEAD_BYTES - offset)
  for (let at = 0; at < end; at++) {
    if (isSpace(piece[at])) continue
    return piece[at] === OPEN_BRACE || piece[at] === OPEN_BRACKET ? 'json' : 'form'
  }
  return offset + piece.length >= HEAD_BYTES ? 'form' : undefined
}

/**
 * The real service takes a body as a form only when its Content-Type says so and its head does not start
 * like JSON (Vault's `isForm`, `http/handler.go`). An empty body of a form's type is an empty form.
 */
function isForm(bytes: Uint8Array, contentType: string): boolean {
  return namesForm(contentType) && sniffHead(bytes, 0) !== 'json'
}

function parseForm(bytes: Uint8Array): Record<string, unknown> {
  const values = new Map<string, string[]>()
  let fields = 0
  for (const pair of decode(bytes).split('&')) {
    if (pair === '') continue
    // The bound BodyBounds checks as a body arrives, for a body the listener read whole (the vault profile).
    if (++fields > SERVICE_ENTRY_LIMITS.perCollection) throw new RequestDataError(FORM_ERROR)
    if (pair.includes(';')) throw new RequestDataError(FORM_ERROR)
    const at = pair.indexOf('=')
    const key = unescapeForm(at === -1 ? pair : pair.slice(0, at))
    const value = unescapeForm(at === -1 ? '' : pair.slice(at + 1))
    const list = values.get(key)
    if (list) list.push(value)
    else values.set(key, [value])
  }
  const data: Record<string, unknown> = {}
  for (const [key, list] of values) data[key] = list.join(',')
  return data
}

function unescapeForm(text: string): string {
  if (/%(?![0-9a-fA-F]{2})/.test(text)) throw new RequestDataError(FORM_ERROR)
  try {
    return decodeURIComponent(text.replaceAll('+', ' '))
  } catch {
    // Valid escapes that do not form UTF-8: Go keeps the bytes; the replacement character is closest.
    return Buffer.from(
      text.replaceAll('+', ' ').replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8')
  }
}

/**
 * Go's `json.Decoder.Decode` into a map: the first value must be an object (or `null`); whatever follows
 * a complete object is not read. `end` is where the body's bounds check found that object closing.
 */
function parseJsonObject(bytes: Uint8Array, end: number): Record<string, unknown> {
  let start = 0
  while (isSpace(bytes[start])) start++
  if (start === bytes.length) return {}
  if (NULL.every((byte, i) => bytes[start + i] === byte)) {
    if (start + 4 === bytes.length || isSpace(bytes[start + 4])) return {}
    throw new RequestDataError(JSON_ERROR)
  }
  if (bytes[start] !== OPEN_BRACE || end === -1) throw new RequestDataError(JSON_ERROR)
  try {
    return parseKeepingNumbers(decodeJson(bytes.subarray(start, end))) as Record<string, unknown>
  } catch {
    throw new RequestDataError(JSON_ERROR)
  }
}

type Reviver = (this: unknown, key: string, value: unknown, context: { source?: string }) => unknown

const keepNumberText: Reviver = (_key, value, context) => (typeof value === 'number' && context.source !== undefined ? context.source : value)

/**
 * `JSON.parse` that keeps every number as its source text (Go's `json.Number`). Throws
 * NestingTooDeepError past the service's nesting limit and TooManyEntriesError past its entry limits,
 * before parsing.
 */
export function parseJsonKeepingNumbers(text: string): unknown {
  checkJsonDepth(text, SERVICE_NESTING_LIMIT, SERVICE_ENTRY_LIMITS)
  return parseKeepingNumbers(text)
}

function parseKeepingNumbers(text: string): unknown {
  // A reviver slows every parse down; most bodies (logins, role writes) hold no number at all.
  const plain: unknown = JSON.parse(text)
  const value = holdsNumber(plain) ? JSON.parse(text, keepNumberText as (key: string, value: unknown) => unknown) : plain
  return SURROGATE_ESCAPE.test(text) ? wellFormed(value) : value
}

/** An escaped surrogate half: Go's decoder reads one without its pair as U+FFFD, where JSON.parse keeps it. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/

function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return value.toWellFormed()
  if (Array.isArray(value)) return value.map(wellFormed)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) setOwnField(out, key.toWellFormed(), wellFormed(field))
  return out
}

function holdsNumber(value: unknown): boolean {
  if (typeof value === 'number') return true
  if (typeof value !== 'object' || value === null) return false
  for (const item of Array.isArray(value) ? value : Object.values(value)) if (holdsNumber(item)) return true
  return false
}

/** Query parameters as request data: one value as a string, several as an array; `help` is reserved. */
export function queryData(url: URL): Record<string, unknown> {
  const data: Record<string, unknown> = {}
  if (url.search === '') return data
  for (const key of new Set(url.searchParams.keys())) {
    if (key === 'help') continue
    const values = url.searchParams.getAll(key)
    data[key] = values.length === 1 ? values[0] : values
  }
  return data
}
