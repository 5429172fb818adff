import { checkJsonDepth, jsonValueEnd, SERVICE_ENTRY_LIMITS, SERVICE_NESTING_LIMIT } from '../../core/bounded-parse.ts'
import { BodyTooLargeError, readBodyBytes } from '../../core/http.ts'
import { AuthRefusal } from './auth-refusal.ts'

/** A request body the service cannot read: 400 `error parsing JSON`, or 413 when over the size limit. */
export class RequestDataError extends AuthRefusal {
  override name = 'RequestDataError'
  constructor(message: string, status = 400) {
    super(message, status, 'DOPPEL_INVALID_REQUEST_DATA')
  }
}

const JSON_ERROR = 'error parsing JSON'
const FORM_ERROR = 'error parsing form data'
const WHITESPACE = new Set([' ', '\t', '\n', '\r'])

/**
 * The request data of a write: a JSON object or a form-encoded body; an empty body is `{}`.
 * JSON numbers arrive as their exact source text (as the real service decodes with `UseNumber`), so
 * `1.0` stays `"1.0"`; the field converters treat them as Go does.
 */
export async function readRequestData(request: Request): Promise<Record<string, unknown>> {
  let bytes: Uint8Array
  try {
    bytes = await readBodyBytes(request)
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new RequestDataError(JSON_ERROR, 413)
    throw new RequestDataError(JSON_ERROR)
  }
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)
  return isForm(text, request.headers.get('content-type') ?? '') ? parseForm(text) : parseJsonObject(text)
}

/** The real service takes a body as a form only when it says so and does not start like JSON. */
function isForm(text: string, contentType: string): boolean {
  if (contentType.split(';')[0]!.trim().toLowerCase() !== 'application/x-www-form-urlencoded') return false
  for (const char of text) {
    if (WHITESPACE.has(char)) continue
    return char !== '{' && char !== '['
  }
  return true
}

function parseForm(text: string): Record<string, unknown> {
  const values = new Map<string, string[]>()
  let pairs = 0
  for (let from = 0; from <= text.length; ) {
    let to = text.indexOf('&', from)
    if (to === -1) to = text.length
    const pair = text.slice(from, to)
    from = to + 1
    if (pair === '') continue
    // The JSON body's bound on entries holds for a form body too (docs/reference/cloud-auth.md §1.3).
    if (++pairs > SERVICE_ENTRY_LIMITS.perCollection) throw new RequestDataError(FORM_ERROR)
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
 * a complete object is not read.
 */
function parseJsonObject(text: string): Record<string, unknown> {
  let start = 0
  while (start < text.length && WHITESPACE.has(text[start]!)) start++
  if (start === text.length) return {}
  if (text.startsWith('null', start)) {
    const next = text[start + 4]
    if (next === undefined || WHITESPACE.has(next)) return {}
    throw new RequestDataError(JSON_ERROR)
  }
  if (text[start] !== '{') throw new RequestDataError(JSON_ERROR)
  try {
    // The scan finds the object's end and enforces the nesting and entry limits before anything is parsed.
    const end = jsonValueEnd(text, start, SERVICE_NESTING_LIMIT, SERVICE_ENTRY_LIMITS)
    if (end === -1) throw new RequestDataError(JSON_ERROR)
    return parseKeepingNumbers(text.slice(start, end)) as Record<string, unknown>
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
  return holdsNumber(plain) ? JSON.parse(text, keepNumberText as (key: string, value: unknown) => unknown) : plain
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
