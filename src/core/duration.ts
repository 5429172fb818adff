/**
 * Go-style durations as the auth service parses them (`TypeDurationSecond`): integer seconds,
 * numeric strings, Go duration strings (`"72h"`, `"1h30m"`, `"500ms"`), or `"<n>d"`; always whole seconds.
 */
export class DurationError extends Error {
  override name = 'DurationError'
}

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  'µs': 1e-3,
  'μs': 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
}

/** Parses a Go duration string into milliseconds, with Go's error text. */
export function parseGoDurationMs(input: string): number {
  const invalid = () => new DurationError(`time: invalid duration ${JSON.stringify(input)}`)
  let s = input
  let sign = 1
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1
    s = s.slice(1)
  }
  if (s === '0') return 0
  if (s === '') throw invalid()
  let total = 0
  const part = /^(\d*\.?\d*)(ns|us|µs|μs|ms|s|m|h)/
  while (s.length > 0) {
    const m = part.exec(s)
    if (!m || m[1] === '' || m[1] === '.') {
      if (/^\d*\.?\d*$/.test(s)) throw new DurationError(`time: missing unit in duration ${JSON.stringify(input)}`)
      throw invalid()
    }
    total += Number(m[1]) * UNIT_MS[m[2]!]!
    s = s.slice(m[0].length)
  }
  return sign * total
}

export interface ParseDurationOptions {
  /** Keep sub-second precision (the clock uses it); the service truncates to seconds. */
  allowFraction?: boolean
}

/** Parses a duration field value into seconds. Throws DurationError with the service's message. */
export function parseDuration(value: unknown, options: ParseDurationOptions = {}): number {
  let seconds: number
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new DurationError(`time: invalid duration ${JSON.stringify(String(value))}`)
    seconds = value
  } else if (typeof value === 'string') {
    const s = value.trim()
    if (s === '') return 0
    if (/^[-+]?\d+$/.test(s)) seconds = Number(s)
    else if (/^[-+]?\d+d$/.test(s)) seconds = Number(s.slice(0, -1)) * 86400
    else seconds = parseGoDurationMs(s) / 1000
  } else if (value === null || value === undefined) {
    return 0
  } else {
    throw new DurationError(`time: invalid duration ${JSON.stringify(String(value))}`)
  }
  if (seconds < 0) throw new DurationError(`cannot provide negative value '${seconds}'`)
  return options.allowFraction ? seconds : Math.trunc(seconds)
}

/** Go's `time.Duration.String()` for whole seconds: `768h0m0s`, `2m0s`, `0s`. */
export function formatGoDuration(seconds: number): string {
  if (seconds === 0) return '0s'
  const neg = seconds < 0
  let s = Math.abs(Math.trunc(seconds))
  const h = Math.floor(s / 3600)
  s -= h * 3600
  const m = Math.floor(s / 60)
  s -= m * 60
  let out = ''
  if (h > 0) out = `${h}h${m}m${s}s`
  else if (m > 0) out = `${m}m${s}s`
  else out = `${s}s`
  return (neg ? '-' : '') + out
}

/** The short form used in token warnings: zero units dropped (`768h`, `1h30m`, `90s`). */
export function formatShortDuration(seconds: number): string {
  return formatGoDuration(seconds).replace(/(\D)0s$/, '$1').replace(/h0m$/, 'h')
}
