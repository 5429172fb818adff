import { DoppelError } from '../../../core/doppel-error.ts'
import { GoDurationError, parseGoDurationNs } from '../../../core/go/go-duration.ts'
import { parseGoInt, StrconvError } from '../../../core/go/go-strconv.ts'
import { FieldError } from './field-error.ts'

/** The longest duration the real service can hold: Go's `time.Duration`, int64 nanoseconds (~292 years). */
const MAX_DURATION_SECONDS = 9_223_372_036

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
  if (!(seconds <= MAX_DURATION_SECONDS)) throw new FieldError(name, value, OUT_OF_RANGE)
  return seconds
}

/** doppel's refusal past a Go `time.Duration`, where the real service's arithmetic would overflow. */
const OUT_OF_RANGE = `duration out of range: at most ${MAX_DURATION_SECONDS} seconds (a Go time.Duration)`

/**
 * A duration in seconds as the SDK's `parseutil.ParseDurationSecond` reads it, negative ones too, within a
 * Go `time.Duration`; throws a `DoppelError` with the real service's words (or doppel's, past the range).
 */
export function goDurationSeconds(value: unknown): number {
  const seconds = durationSeconds(value)
  if (!(Math.abs(seconds) <= MAX_DURATION_SECONDS)) throw new DurationInputError(OUT_OF_RANGE)
  return seconds
}

/** A duration that is neither a number nor text. */
class DurationInputError extends DoppelError {
  constructor(message: string) {
    super('DOPPEL_INVALID_DURATION', message)
  }
}

function durationSeconds(value: unknown): number {
  if (value === null || value === undefined) return 0
  if (typeof value === 'number') return Math.trunc(value)
  if (typeof value !== 'string') throw new DurationInputError('could not parse duration from input')
  if (value === '') return 0
  if (/^[+-]?[0-9]+$/.test(value)) {
    const whole = BigInt(value)
    if (whole <= (1n << 63n) - 1n && whole >= -(1n << 63n)) return Number(whole)
  }
  if (value.endsWith('d')) return parseGoInt(value.slice(0, -1), 10) * 86400
  const ns = parseGoDurationNs(value)
  return Number(ns / 1_000_000_000n)
}
