import { errorKind } from '../doppel-error.ts'
import { ownEntry } from '../own-field.ts'
/**
 * Go's `time.ParseDuration`, exactly: the same accepted forms, the same overflow limit (about 292 years)
 * and the same error texts, which the real service passes through to clients.
 */
export class GoDurationError extends errorKind('GoDurationError', 'DOPPEL_INVALID_DURATION') {}

const UNIT_NS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n,
  'μs': 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
}

const LIMIT = 1n << 63n

/** The `time` package's own quoting: non-ASCII and control bytes as `\x..`. */
function timeQuote(text: string): string {
  let out = '"'
  for (const char of text) {
    const code = char.codePointAt(0)!
    if (code >= 0x80 || code < 0x20) {
      for (const byte of Buffer.from(char, 'utf8')) out += `\\x${byte.toString(16).padStart(2, '0')}`
    } else {
      if (char === '"' || char === '\\') out += '\\'
      out += char
    }
  }
  return out + '"'
}

/** Parses a Go duration string into nanoseconds (a BigInt, so no precision is lost). */
export function parseGoDurationNs(input: string): bigint {
  const invalid = () => new GoDurationError(`time: invalid duration ${timeQuote(input)}`)
  let s = input
  let negative = false
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    negative = s[0] === '-'
    s = s.slice(1)
  }
  if (s === '0') return 0n
  if (s === '') throw invalid()
  let total = 0n
  while (s !== '') {
    if (!/^[0-9.]/.test(s)) throw invalid()
    const whole = /^[0-9]*/.exec(s)![0]
    s = s.slice(whole.length)
    let fraction = ''
    let hasFraction = false
    if (s.startsWith('.')) {
      s = s.slice(1)
      fraction = /^[0-9]*/.exec(s)![0]
      s = s.slice(fraction.length)
      hasFraction = fraction !== ''
    }
    if (whole === '' && !hasFraction) throw invalid()
    const unitText = /^[^0-9.]*/.exec(s)![0]
    if (unitText === '') throw new GoDurationError(`time: missing unit in duration ${timeQuote(input)}`)
    s = s.slice(unitText.length)
    const unit = ownEntry(UNIT_NS, unitText)
    if (unit === undefined) {
      throw new GoDurationError(`time: unknown unit ${timeQuote(unitText)} in duration ${timeQuote(input)}`)
    }
    const wholeValue = whole === '' ? 0n : BigInt(whole)
    if (wholeValue >= LIMIT) throw invalid()
    let value = wholeValue
    if (value > LIMIT / unit) throw invalid()
    value *= unit
    if (hasFraction) {
      // Go keeps at most the digits that fit its uint64 fraction; 18 digits is past nanosecond precision.
      const digits = fraction.slice(0, 18)
      value += BigInt(Math.trunc(Number(digits) * (Number(unit) / 10 ** digits.length)))
      if (value > LIMIT) throw invalid()
    }
    total += value
    if (total > LIMIT) throw invalid()
  }
  if (!negative && total > LIMIT - 1n) throw invalid()
  return negative ? -total : total
}
