import { NestingTooDeepError } from '../../../core/bounded-parse.ts'
import { decodeStdBase64 } from '../../../core/go/go-base64.ts'
import { goQuote, goString, goValue } from '../../../core/go/go-format.ts'
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
 * TypeHeader (`iam_request_headers`): a JSON object of strings, numbers or string arrays; base64 of such
 * an object; the object as raw JSON text; or an array of `"Key:Value"` strings. Keys are canonicalised.
 */
export function toHeaderField(value: unknown, name: string): HeaderMap {
  const fail = (reason: string): never => {
    throw new FieldError(name, value, reason)
  }
  if (value === null || value === undefined) return {}
  if (typeof value === 'string') {
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
    const headers: HeaderMap = Object.create(null)
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
