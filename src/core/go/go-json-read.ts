/**
 * What Go's `json.Decoder.Decode` makes of a request body, for the errors the real service's HTTP layer
 * passes on word for word (`failed to parse JSON input: <error>`): its scanner's syntax errors, `unexpected
 * EOF`, and the type error of a first value that is not an object. Only the syntax is judged here; a value
 * that passes is parsed by `JSON.parse`, which accepts exactly what Go's scanner accepts.
 */
import { goQuoteChar } from './go-format.ts'

/** What the decoder read first: nothing but white space (Go's `io.EOF`), a value (its bytes), or an error. */
export type GoJsonRead = { kind: 'none' } | { kind: 'value'; start: number; end: number } | { kind: 'error'; message: string }

/** Go's `http.MaxBytesReader` error, read past the body's limit. */
export const BODY_TOO_LARGE = 'http: request body too large'

/** Go's scanner stops at this nesting (`maxNestingDepth`). */
const MAX_NESTING = 10_000

// The scanner's states (Go's `stateBeginValue` and the rest), and what each open container expects next.
const BEGIN_VALUE = 0
const BEGIN_VALUE_OR_EMPTY = 1
const BEGIN_STRING_OR_EMPTY = 2
const BEGIN_STRING = 3
const END_VALUE = 4
const IN_STRING = 5
const IN_STRING_ESCAPE = 6
const IN_UNICODE_ESCAPE = 7
const NEGATIVE = 8
const DIGITS = 9
const ZERO = 10
const DOT = 11
const FRACTION = 12
const EXPONENT = 13
const EXPONENT_SIGN = 14
const EXPONENT_DIGITS = 15
const LITERAL = 16

const OBJECT_KEY = 0
const OBJECT_VALUE = 1
const ARRAY_VALUE = 2

/** States in which the end of the body completes a value at the top (Go steps once more with a space). */
const ENDS_AT_EOF = new Set([END_VALUE, DIGITS, ZERO, FRACTION, EXPONENT_DIGITS])

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d
const isDigit = (c: number) => c >= 0x30 && c <= 0x39
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46)
/** Tables by a character's byte. */
const byByte = <T>(entries: [string, T][]) => new Map(entries.map(([char, value]) => [char.charCodeAt(0), value]))
const LITERALS = byByte(['true', 'false', 'null'].map((word) => [word[0]!, word]))
const SHORT_ESCAPES = new Set([...'bfnrt\\/"'].map((char) => char.charCodeAt(0)))
/** The state a value starts in, by its first byte. */
const VALUE_STARTS = byByte<number>([['"', IN_STRING], ['-', NEGATIVE], ['0', ZERO], ['t', LITERAL], ['f', LITERAL], ['n', LITERAL], ...[...'123456789'].map((digit): [string, number] => [digit, DIGITS])])

/**
 * The first JSON value of `bytes` as Go's `Decoder` reads it: bytes after a complete value are not read.
 * `over` says the body went on past what the reader may take (`http.MaxBytesReader`): reaching the end of
 * `bytes` is then that error, not the end of the body.
 */
export function readGoJsonValue(bytes: Uint8Array, over = false): GoJsonRead {
  const open: number[] = []
  let state = BEGIN_VALUE
  let start = -1
  /** Hex digits of a `\u` escape seen, or characters of a literal matched. */
  let count = 0
  let literal = ''
  const error = (c: number, context: string): GoJsonRead => ({ kind: 'error', message: `invalid character ${goQuoteChar(c)} ${context}` })

  for (let at = 0; at < bytes.length; at++) {
    // Inside a string, a run of plain bytes at once (a login's documents are kilobytes of them).
    if (state === IN_STRING) {
      while (at < bytes.length && bytes[at]! >= 0x20 && bytes[at] !== 0x22 && bytes[at] !== 0x5c) at++
      if (at === bytes.length) break
    }
    const c = bytes[at]!
    if (start === -1 && !isSpace(c)) start = at
    // A state that hands its byte on (Go's `return stateEndValue(s, c)`) sets the next state and reads it again.
    for (let again = true; again; ) {
      again = false
      if (state === BEGIN_VALUE_OR_EMPTY && c === 0x5d) {
        state = END_VALUE
        again = true
      } else if (state === BEGIN_STRING_OR_EMPTY && c === 0x7d) {
        open[open.length - 1] = OBJECT_VALUE
        state = END_VALUE
        again = true
      } else if (state === BEGIN_VALUE || state === BEGIN_VALUE_OR_EMPTY) {
        if (isSpace(c)) continue
        if (c === 0x7b || c === 0x5b) {
          open.push(c === 0x7b ? OBJECT_KEY : ARRAY_VALUE)
          if (open.length > MAX_NESTING) return error(c, 'exceeded max depth')
          state = c === 0x7b ? BEGIN_STRING_OR_EMPTY : BEGIN_VALUE_OR_EMPTY
          continue
        }
        const next = VALUE_STARTS.get(c)
        if (next === undefined) return error(c, 'looking for beginning of value')
        if (next === LITERAL) {
          literal = LITERALS.get(c)!
          count = 1
        }
        state = next
      } else if (state === BEGIN_STRING_OR_EMPTY || state === BEGIN_STRING) {
        if (isSpace(c)) continue
        if (c !== 0x22) return error(c, 'looking for beginning of object key string')
        state = IN_STRING
      } else if (state === END_VALUE) {
        // A scalar at the top closes on the byte after it, which is not read.
        if (open.length === 0) return { kind: 'value', start, end: at }
        if (isSpace(c)) continue
        const top = open[open.length - 1]!
        if (top === OBJECT_KEY) {
          if (c !== 0x3a) return error(c, 'after object key')
          open[open.length - 1] = OBJECT_VALUE
          state = BEGIN_VALUE
        } else if (c === 0x2c) {
          if (top === OBJECT_VALUE) open[open.length - 1] = OBJECT_KEY
          state = top === OBJECT_VALUE ? BEGIN_STRING : BEGIN_VALUE
        } else if (c === (top === OBJECT_VALUE ? 0x7d : 0x5d)) {
          open.pop()
          // A container at the top closes on its own last byte.
          if (open.length === 0) return { kind: 'value', start, end: at + 1 }
        } else return error(c, top === OBJECT_VALUE ? 'after object key:value pair' : 'after array element')
      } else if (state === IN_STRING) {
        if (c === 0x22) state = END_VALUE
        else if (c === 0x5c) state = IN_STRING_ESCAPE
        else if (c < 0x20) return error(c, 'in string literal')
      } else if (state === IN_STRING_ESCAPE) {
        if (c === 0x75) {
          count = 0
          state = IN_UNICODE_ESCAPE
        } else if (SHORT_ESCAPES.has(c)) state = IN_STRING
        else return error(c, 'in string escape code')
      } else if (state === IN_UNICODE_ESCAPE) {
        if (!isHex(c)) return error(c, 'in \\u hexadecimal character escape')
        if (++count === 4) state = IN_STRING
      } else if (state === NEGATIVE) {
        if (c === 0x30) state = ZERO
        else if (c >= 0x31 && c <= 0x39) state = DIGITS
        else return error(c, 'in numeric literal')
      } else if (state === DIGITS || state === ZERO || state === FRACTION) {
        if (isDigit(c) && state !== ZERO) continue
        if (c === 0x2e && state !== FRACTION) state = DOT
        else if (c === 0x65 || c === 0x45) state = EXPONENT
        else {
          state = END_VALUE
          again = true
        }
      } else if (state === DOT) {
        if (!isDigit(c)) return error(c, 'after decimal point in numeric literal')
        state = FRACTION
      } else if (state === EXPONENT && (c === 0x2b || c === 0x2d)) {
        state = EXPONENT_SIGN
      } else if (state === EXPONENT || state === EXPONENT_SIGN) {
        if (!isDigit(c)) return error(c, 'in exponent of numeric literal')
        state = EXPONENT_DIGITS
      } else if (state === EXPONENT_DIGITS) {
        if (isDigit(c)) continue
        state = END_VALUE
        again = true
      } else {
        const expected = literal.charCodeAt(count)
        if (c !== expected) return error(c, `in literal ${literal} (expecting ${goQuoteChar(expected)})`)
        if (++count === literal.length) state = END_VALUE
      }
    }
  }
  if (over) return { kind: 'error', message: BODY_TOO_LARGE }
  if (open.length === 0 && ENDS_AT_EOF.has(state) && start !== -1) return { kind: 'value', start, end: bytes.length }
  return start === -1 ? { kind: 'none' } : { kind: 'error', message: 'unexpected EOF' }
}

const VALUE_KINDS = byByte([['[', 'array'], ['"', 'string'], ['t', 'bool'], ['f', 'bool']])

/**
 * The error of unmarshalling a value that starts with `first` into `map[string]interface{}`: none for an
 * object or `null` (which leaves the map nil), Go's type error for anything else.
 */
export function goMapUnmarshalError(first: number): string | undefined {
  if (first === 0x7b || first === 0x6e) return undefined
  return `json: cannot unmarshal ${VALUE_KINDS.get(first) ?? 'number'} into Go value of type map[string]interface {}`
}
