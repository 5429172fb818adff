import { NestingTooDeepError } from '../../../core/bounded-parse.ts'
import { decodeStdBase64 } from '../../../core/go/go-base64.ts'
import { goQuote, goString } from '../../../core/go/go-format.ts'
import { goMapUnmarshalError, readGoJsonValue } from '../../../core/go/go-json-read.ts'
import { parseJsonKeepingNumbers } from '../request-body.ts'
import { FieldError } from './field-error.ts'

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
 * TypeHeader (`iam_request_headers`), in the SDK's order (framework/field_data.go): an object of strings,
 * numbers or string lists (a list of objects merged into one, as mapstructure decodes it); a string of
 * base64 of such an object or of the object's JSON text, decoded as Go's decoder decodes it; else a list of
 * `"Key:Value"` strings (any other value is a list of itself, whose items that are not strings are the empty
 * pair `""`). Keys are canonicalised.
 */
export function toHeaderField(value: unknown, name: string): HeaderMap {
  const fail = (reason: string): never => {
    throw new FieldError(name, value, reason)
  }
  if (value === null || value === undefined) return {}
  if (typeof value === 'string') return headersFromText(value, fail)
  if (isObject(value)) return headersFromObject(value, fail)
  const items = Array.isArray(value) ? value : [value]
  if (items.every((item) => item === null || isObject(item))) return headersFromObject(Object.assign(Object.create(null), ...items.filter(isObject)), fail)
  const headers: HeaderMap = Object.create(null)
  for (const pair of items) {
    const text = typeof pair === 'string' ? pair : ''
    const at = text.indexOf(':')
    if (at <= 0) return fail(`invalid key pair ${goQuote(text)}`)
    addHeader(headers, text.slice(0, at), text.slice(at + 1))
  }
  return headers
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The object a string holds, base64 or not, read as the SDK's `jsonutil.DecodeJSON` reads it. */
function headersFromText(value: string, fail: (reason: string) => never): HeaderMap {
  const bytes = decodeStdBase64(value) ?? Buffer.from(value, 'utf8')
  if (bytes.length === 0) return fail("'data' being decoded is nil")
  const read = readGoJsonValue(bytes)
  if (read.kind === 'none') return fail('EOF')
  if (read.kind === 'error') return fail(read.message)
  const typeError = goMapUnmarshalError(bytes[read.start]!)
  if (typeError) return fail(typeError)
  let parsed: unknown
  try {
    parsed = parseJsonKeepingNumbers(bytes.subarray(read.start, read.end).toString('utf8'))
  } catch (error) {
    if (error instanceof NestingTooDeepError) return fail('exceeded max depth')
    throw error
  }
  return parsed === null ? {} : headersFromObject(parsed as Record<string, unknown>, fail)
}

function headersFromObject(object: Record<string, unknown>, fail: (reason: string) => never): HeaderMap {
  const headers: HeaderMap = Object.create(null)
  for (const [key, group] of Object.entries(object)) {
    if (typeof group === 'string') addHeader(headers, key, group)
    else if (Array.isArray(group)) {
      for (const item of group) {
        if (typeof item !== 'string') fail(`received non-string value for header key:${key}, val:${goString(group)}`)
        addHeader(headers, key, item as string)
      }
    } else fail(`unrecognized type for ${goString(group)}`)
  }
  return headers
}

function addHeader(headers: HeaderMap, key: string, value: string): void {
  const canonical = canonicalHeaderKey(key)
  ;(headers[canonical] ??= []).push(value)
}
