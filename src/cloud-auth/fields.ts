/**
 * Field types of the real service's framework (reference §1.7), converted the way it converts them:
 * weakly typed, with its exact error texts. Request data holds JSON numbers as their source text.
 */
import { decodeStdBase64 } from './go-base64.ts'
import { NestingTooDeepError } from '../core/bounded-parse.ts'
import { GoDurationError, parseGoDurationNs } from '../core/go-duration.ts'
import { goQuote, goTypeName, goValue } from './go-format.ts'
import { parseGoBool, parseGoInt, StrconvError } from './go-strconv.ts'
import { parseJsonKeepingNumbers } from './request-body.ts'

export { readRequestData, RequestDataError } from './request-body.ts'

/**
 * A value that does not convert to its field's type. The message has no `Field validation failed: `
 * prefix; the route adds it where the real service does (§1.6).
 */
export class FieldError extends Error {
  override name = 'FieldError'
  readonly field: string
  constructor(field: string, value: unknown, reason: string) {
    super(`error converting input ${goValue(value)} for field ${goQuote(field)}: ${reason}`)
    this.field = field
  }
}

/** mapstructure's refusal of a value of the wrong kind. */
function unconvertible(name: string, target: string, value: unknown): string {
  return `'${name}' expected type '${target}', got unconvertible type '${goTypeName(value)}', value: '${goValue(value)}'`
}

function isScalarText(value: unknown): value is string {
  return typeof value === 'string'
}

/** TypeString: scalars weakly converted (bools become `"1"`/`"0"`); lists and objects refused. */
export function toStringField(value: unknown, name: string): string {
  const result = weakString(value, '')
  if (typeof result === 'string') return result
  throw new FieldError(name, value, result.error)
}

function weakString(value: unknown, name: string): string | { error: string } {
  if (value === null || value === undefined) return ''
  if (isScalarText(value)) return value
  if (typeof value === 'boolean') return value ? '1' : '0'
  if (typeof value === 'number') return String(value)
  return { error: unconvertible(name, 'string', value) }
}

/** TypeBool: bools, Go's `ParseBool` strings, `""` (false); JSON numbers arrive as text, so only 1 and 0. */
export function toBoolField(value: unknown, name: string): boolean {
  if (value === null || value === undefined) return false
  if (typeof value === 'boolean') return value
  if (typeof value === 'number') return value !== 0
  if (isScalarText(value)) {
    if (value === '') return false
    try {
      return parseGoBool(value)
    } catch (error) {
      throw new FieldError(name, value, `cannot parse '' as bool: ${(error as Error).message}`)
    }
  }
  throw new FieldError(name, value, unconvertible('', 'bool', value))
}

/**
 * TypeInt: numbers and numeric strings in Go literal syntax (`0x10` too); `""` is 0; bools are 1/0.
 * Integers a JavaScript number cannot hold exactly (beyond ±2^53 - 1) are refused, so what is stored
 * reads back as written.
 */
export function toIntField(value: unknown, name: string): number {
  if (value === null || value === undefined) return 0
  if (typeof value === 'boolean') return value ? 1 : 0
  let result: number
  if (typeof value === 'number') result = Math.trunc(value)
  else if (isScalarText(value)) {
    try {
      result = parseGoInt(value === '' ? '0' : value, 0)
    } catch (error) {
      throw new FieldError(name, value, `cannot parse '' as int: ${(error as Error).message}`)
    }
  } else throw new FieldError(name, value, unconvertible('', 'int', value))
  if (!Number.isSafeInteger(result)) {
    throw new FieldError(name, value, `value out of range: at most ${Number.MAX_SAFE_INTEGER} in magnitude can be stored exactly`)
  }
  return result
}

/** The longest duration the real service can hold: Go's `time.Duration`, int64 nanoseconds (~292 years). */
export const MAX_DURATION_SECONDS = 9_223_372_036

/**
 * TypeDurationSecond: integer seconds, Go durations (`72h`, `1h30m`; fractions of a second truncated),
 * `<n>d`; `""` is 0. Negative results are refused.
 */
export function toDurationField(value: unknown, name: string): number {
  let seconds: number
  try {
    seconds = durationSeconds(value)
  } catch (error) {
    if (error instanceof StrconvError || error instanceof GoDurationError || error instanceof DurationInputError) {
      throw new FieldError(name, value, error.message)
    }
    throw error
  }
  if (seconds < 0) throw new FieldError(name, value, `cannot provide negative value '${seconds}'`)
  if (!(seconds <= MAX_DURATION_SECONDS)) {
    throw new FieldError(name, value, `duration out of range: at most ${MAX_DURATION_SECONDS} seconds (a Go time.Duration)`)
  }
  return seconds
}

class DurationInputError extends Error {}

function durationSeconds(value: unknown): number {
  if (value === null || value === undefined) return 0
  if (typeof value === 'number') return Math.trunc(value)
  if (!isScalarText(value)) throw new DurationInputError('could not parse duration from input')
  if (value === '') return 0
  if (/^[+-]?[0-9]+$/.test(value)) {
    const whole = BigInt(value)
    if (whole <= (1n << 63n) - 1n && whole >= -(1n << 63n)) return Number(whole)
  }
  if (value.endsWith('d')) return parseGoInt(value.slice(0, -1), 10) * 86400
  const ns = parseGoDurationNs(value)
  return Number(ns / 1_000_000_000n)
}

/**
 * TypeCommaStringSlice: a JSON array (items weakly converted to strings) or one string split on `,`;
 * items trimmed, empty items kept, order and duplicates kept; `""` gives `[]`.
 */
export function toCommaListField(value: unknown, name: string): string[] {
  if (value === null || value === undefined || value === '') return []
  let items: unknown[]
  if (isScalarText(value)) items = value.split(',')
  else if (Array.isArray(value)) items = value
  else if (typeof value === 'object' && Object.keys(value).length === 0) return []
  else items = [value]
  const out: string[] = []
  const errors: string[] = []
  items.forEach((item, index) => {
    const converted = weakString(item, `[${index}]`)
    if (typeof converted === 'string') out.push(converted.trim())
    else errors.push(`* ${converted.error}`)
  })
  if (errors.length > 0) {
    throw new FieldError(name, value, `${errors.length} error(s) decoding:\n\n${errors.sort().join('\n')}`)
  }
  return out
}

/** Go's `textproto.CanonicalMIMEHeaderKey`: `x-amz-date` → `X-Amz-Date`; keys with invalid bytes unchanged. */
export function canonicalHeaderKey(key: string): string {
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]*$/.test(key)) return key
  // A letter opening the key or following `-` is upper case, every other letter lower case. Most keys
  // arrive canonical already (SDKs send `X-Amz-Date`) and are returned without building a new string.
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i)
    const upper = i === 0 || key.charCodeAt(i - 1) === HYPHEN
    if (upper ? code >= LOWER_A && code <= LOWER_Z : code >= UPPER_A && code <= UPPER_Z) return recased(key)
  }
  return key
}

const HYPHEN = 0x2d
const UPPER_A = 0x41
const UPPER_Z = 0x5a
const LOWER_A = 0x61
const LOWER_Z = 0x7a

function recased(key: string): string {
  let out = ''
  for (let i = 0; i < key.length; i++) {
    const char = key[i]!
    out += i === 0 || key.charCodeAt(i - 1) === HYPHEN ? char.toUpperCase() : char.toLowerCase()
  }
  return out
}

export type HeaderMap = Record<string, string[]>

/**
 * TypeHeader (`iam_request_headers`): a JSON object of strings, numbers or string arrays; base64 of such
 * an object; the object as raw JSON text; or an array of `"Key:Value"` strings. Keys are canonicalised.
 */
export function toHeaderField(value: unknown, name: string): HeaderMap {
  const fail = (reason: string): never => {
    throw new FieldError(name, value, reason)
  }
  if (value === null || value === undefined) return {}
  if (isScalarText(value)) {
    const decoded = decodeStdBase64(value)
    const text = decoded === undefined ? value : decoded.toString('utf8')
    let parsed: unknown
    try {
      parsed = parseJsonKeepingNumbers(text)
    } catch (error) {
      return fail(error instanceof NestingTooDeepError ? 'exceeded max depth' : goJsonSyntaxError(text))
    }
    if (parsed === null) return {}
    if (typeof parsed !== 'object' || Array.isArray(parsed)) {
      return fail(`json: cannot unmarshal ${jsonKind(parsed)} into Go value of type map[string]interface {}`)
    }
    return headersFromObject(parsed as Record<string, unknown>, fail)
  }
  if (Array.isArray(value)) {
    const headers: HeaderMap = {}
    for (const pair of value) {
      const text = typeof pair === 'string' ? pair : goValue(pair)
      const at = text.indexOf(':')
      if (typeof pair !== 'string' || at === -1) return fail(`invalid key pair ${goQuote(text)}`)
      addHeader(headers, text.slice(0, at), text.slice(at + 1))
    }
    return headers
  }
  if (typeof value === 'object') return headersFromObject(value as Record<string, unknown>, fail)
  return fail(`${goValue(value)} is an unrecognized type for headers`)
}

function headersFromObject(object: Record<string, unknown>, fail: (reason: string) => never): HeaderMap {
  const headers: HeaderMap = {}
  for (const [key, group] of Object.entries(object)) {
    if (typeof group === 'string') addHeader(headers, key, group)
    else if (Array.isArray(group)) {
      for (const item of group) {
        if (typeof item !== 'string') fail(`received non-string value for header key:${key}, val:${goValue(group)}`)
        addHeader(headers, key, item as string)
      }
    } else fail(`unrecognized type for ${goValue(group)}`)
  }
  return headers
}

function addHeader(headers: HeaderMap, key: string, value: string): void {
  const canonical = canonicalHeaderKey(key)
  ;(headers[canonical] ??= []).push(value)
}

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'string') return /^[+-]?(\d|\.\d)/.test(value) ? 'number' : 'string'
  return typeof value === 'boolean' ? 'bool' : 'number'
}

/** An approximation of Go's JSON syntax error for text that is not JSON. */
function goJsonSyntaxError(text: string): string {
  const first = text.trimStart()[0]
  if (first === undefined) return 'unexpected end of JSON input'
  if (!/[{["\-0-9tfn]/.test(first)) return `invalid character ${goRune(first)} looking for beginning of value`
  return 'unexpected end of JSON input'
}

function goRune(char: string): string {
  return char === "'" ? `'\\''` : `'${char}'`
}

/** The field types a route declares (reference §1.7). */
export type FieldType = 'string' | 'bool' | 'int' | 'duration' | 'commaList' | 'header'

export type FieldSchema = Readonly<Record<string, FieldType>>

const CONVERTERS: Record<FieldType, (value: unknown, name: string) => unknown> = {
  string: toStringField,
  bool: toBoolField,
  int: toIntField,
  duration: toDurationField,
  commaList: toCommaListField,
  header: toHeaderField,
}

/**
 * The converted fields of one request. Every field of the schema present in the data is converted up
 * front (the first failure wins, as the real service validates before the handler runs); the handler
 * then asks for values and presence. A key is present even when its value is `""`, `null` or `[]`.
 */
export class Fields {
  readonly #values = new Map<string, unknown>()

  constructor(schema: FieldSchema, data: Record<string, unknown>) {
    for (const [name, value] of Object.entries(data)) {
      if (!Object.hasOwn(schema, name)) continue
      this.#values.set(name, CONVERTERS[schema[name]!](value, name))
    }
  }

  has(name: string): boolean {
    return this.#values.has(name)
  }

  string(name: string): string | undefined {
    return this.#values.get(name) as string | undefined
  }

  bool(name: string): boolean | undefined {
    return this.#values.get(name) as boolean | undefined
  }

  int(name: string): number | undefined {
    return this.#values.get(name) as number | undefined
  }

  /** A duration in seconds. */
  duration(name: string): number | undefined {
    return this.#values.get(name) as number | undefined
  }

  list(name: string): string[] | undefined {
    return this.#values.get(name) as string[] | undefined
  }

  headers(name: string): HeaderMap | undefined {
    return this.#values.get(name) as HeaderMap | undefined
  }
}

/** Request keys the schema does not know, sorted (for the "ignored parameters" warning). */
export function unknownFields(schema: FieldSchema, data: Record<string, unknown>): string[] {
  return Object.keys(data)
    .filter((name) => !Object.hasOwn(schema, name))
    .sort()
}
