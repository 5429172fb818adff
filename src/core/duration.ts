import { GoDurationError, parseGoDurationNs } from './go/go-duration.ts'
import { errorKind } from './doppel-error.ts'

/**
 * Go-style durations as the auth service parses them (`TypeDurationSecond`): integer seconds,
 * numeric strings, Go duration strings (`"72h"`, `"1h30m"`, `"500ms"`, read by the exact Go parser), or
 * `"<n>d"`; whole seconds unless asked otherwise.
 */
export class DurationError extends errorKind('DurationError', 'DOPPEL_INVALID_DURATION') {}

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
    else seconds = goDurationSeconds(s)
  } else if (value === null || value === undefined) {
    return 0
  } else {
    throw new DurationError(`time: invalid duration ${JSON.stringify(String(value))}`)
  }
  if (seconds < 0) throw new DurationError(`cannot provide negative value '${seconds}'`)
  return options.allowFraction ? seconds : Math.trunc(seconds)
}

function goDurationSeconds(text: string): number {
  try {
    return Number(parseGoDurationNs(text)) / 1e9
  } catch (error) {
    if (error instanceof GoDurationError) throw new DurationError(error.message)
    throw error
  }
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
