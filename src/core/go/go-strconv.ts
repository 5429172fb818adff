import { goQuote } from './go-format.ts'
import { errorKind } from '../doppel-error.ts'
import { ownEntry } from '../own-field.ts'

/** A Go `strconv` failure; the message is Go's, e.g. `strconv.ParseBool: parsing "x": invalid syntax`. */
export class StrconvError extends errorKind('StrconvError', 'DOPPEL_INVALID_SCALAR') {}

const BOOLS: Record<string, boolean> = {
  '1': true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  '0': false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false,
}

/** `strconv.ParseBool`. */
export function parseGoBool(text: string): boolean {
  const value = ownEntry(BOOLS, text)
  if (value === undefined) throw new StrconvError(`strconv.ParseBool: parsing ${goQuote(text)}: invalid syntax`)
  return value
}

const INT64_MAX = (1n << 63n) - 1n
const INT64_MIN = -(1n << 63n)

/** Go's rule for `_` in base-0 literals: only between digits, or right after a base prefix. */
function underscoresOk(text: string): boolean {
  let s = text
  if (s.startsWith('-') || s.startsWith('+')) s = s.slice(1)
  let saw = '^'
  let hex = false
  if (s.length >= 2 && s[0] === '0' && /[bBoOxX]/.test(s[1]!)) {
    hex = s[1] === 'x' || s[1] === 'X'
    s = s.slice(2)
    saw = '0'
  }
  for (const c of s) {
    if (/[0-9]/.test(c) || (hex && /[a-fA-F]/.test(c))) saw = '0'
    else if (c === '_') {
      if (saw !== '0') return false
      saw = '_'
    } else {
      if (saw === '_') return false
      saw = '!'
    }
  }
  return saw !== '_'
}

/**
 * `strconv.ParseInt(text, base, 64)` for base 10 or 0 (0: Go literal prefixes `0x`, `0o`, `0b`, a leading
 * `0` for octal, `_` separators). Returns a number; values beyond 2^53 lose precision, as JSON would.
 * `fn` names the function in the error, as `strconv.Atoi` (base 10) names itself.
 */
export function parseGoInt(text: string, base: 0 | 10, fn: 'ParseInt' | 'Atoi' = 'ParseInt'): number {
  const syntax = () => new StrconvError(`strconv.${fn}: parsing ${goQuote(text)}: invalid syntax`)
  if (text === '') throw syntax()
  let s = text
  let negative = false
  if (s[0] === '+' || s[0] === '-') {
    negative = s[0] === '-'
    s = s.slice(1)
  }
  let radix = 10
  if (base === 0) {
    if (s.length >= 3 && s[0] === '0' && /[xX]/.test(s[1]!)) [radix, s] = [16, s.slice(2)]
    else if (s.length >= 3 && s[0] === '0' && /[oO]/.test(s[1]!)) [radix, s] = [8, s.slice(2)]
    else if (s.length >= 3 && s[0] === '0' && /[bB]/.test(s[1]!)) [radix, s] = [2, s.slice(2)]
    else if (s.length >= 2 && s[0] === '0') [radix, s] = [8, s.slice(1)]
    if (s.includes('_')) {
      if (!underscoresOk(text)) throw syntax()
      s = s.replaceAll('_', '')
    }
  }
  const digits = radix === 16 ? /^[0-9a-fA-F]+$/ : radix === 8 ? /^[0-7]+$/ : radix === 2 ? /^[01]+$/ : /^[0-9]+$/
  if (s === '' || !digits.test(s)) throw syntax()
  const prefix = radix === 16 ? '0x' : radix === 8 ? '0o' : radix === 2 ? '0b' : ''
  let value = BigInt(prefix + s)
  if (negative) value = -value
  if (value > INT64_MAX || value < INT64_MIN) {
    throw new StrconvError(`strconv.${fn}: parsing ${goQuote(text)}: value out of range`)
  }
  return Number(value)
}
