import { describeValue } from './describe-value.ts'
import { parseDuration } from './duration.ts'
import { parseRfc3339, TimeParseError } from './go/rfc3339.ts'

/** The times the clock can show: years 1970 to 9999, what RFC 3339 timestamps and the services represent. */
export const EARLIEST_MS = 0
export const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999)
const RANGE = '1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z'

/** How an instance's own clock starts (`createDoppel({ clock: { start, frozen } })`). */
export interface ClockOptions {
  /** Start time (a string is an RFC 3339 time, `2026-01-01T00:00:00Z`). Default: the wall clock at creation. */
  start?: Date | string | number
  /** When true, time moves only through `advance` and `set`. Default: false (wall time plus offset). */
  frozen?: boolean
}

/** The clock's position in a snapshot: a frozen instant, or the offset from wall time (which keeps running). */
export type ClockState = { frozen: true; now_ms: number } | { frozen: false; offset_ms: number }

/**
 * The emulator's clock: wall time shifted by an offset, or a frozen instant.
 * Every expiry, tidy, SigV4 skew check and timestamp reads it, so tests move time instead of waiting.
 */
export class Clock {
  #frozen: boolean
  readonly #startsFrozen: boolean
  #startMs: number
  #offsetMs = 0
  #initialOffsetMs = 0
  #frozenAt: number
  #moveListeners: (() => void)[] = []
  /** Counts moves, for cheap "did anything change" checks. */
  #moves = 0

  constructor(options: ClockOptions = {}) {
    this.#frozen = this.#startsFrozen = options.frozen ?? false
    this.#startMs = options.start === undefined ? Date.now() : toMs(options.start, 'start')
    this.#frozenAt = this.#startMs
    if (!this.#frozen) this.#offsetMs = this.#initialOffsetMs = this.#startMs - Date.now()
  }

  /** When the instance's time began (`clock.start`, else its creation): where a reset takes it back. */
  get startMs(): number {
    return this.#startMs
  }

  /** Whether time moves only through `advance` and `set`. */
  get frozen(): boolean {
    return this.#frozen
  }

  /** How many times the clock was moved, for cheap "did anything change" checks. */
  get moves(): number {
    return this.#moves
  }

  /** The emulator's time, in milliseconds since the epoch. */
  nowMs(): number {
    return this.#frozen ? this.#frozenAt : Date.now() + this.#offsetMs
  }

  /** The emulator's time. */
  now(): Date {
    return new Date(this.nowMs())
  }

  /**
   * Moves time forward by a Go duration (`"73h"`), a number of seconds, or `"<n>d"`. Throws RangeError
   * (the clock unchanged) for a negative move or one past the year 9999.
   */
  advance(by: string | number): Date {
    const ms = typeof by === 'number' ? by * 1000 : parseDuration(by, { allowFraction: true }) * 1000
    if (Number.isNaN(ms) || ms < 0) throw new RangeError(`Failed to advance the clock: negative duration "${by}"`)
    if (!(this.nowMs() + ms <= LATEST_MS)) {
      throw new RangeError(`Failed to advance the clock: "advance" ${describeValue(by)} moves the time past 9999-12-31T23:59:59.999Z`)
    }
    if (this.#frozen) this.#frozenAt += ms
    else this.#offsetMs += ms
    this.#moved()
    return this.now()
  }

  /**
   * Moves time to an instant (a string is an RFC 3339 time); throws RangeError (the clock unchanged) for a
   * string that is not one or a time outside years 1970 to 9999.
   */
  set(to: Date | string | number): Date {
    const ms = toMs(to, 'set')
    if (this.#frozen) this.#frozenAt = ms
    else this.#offsetMs = ms - Date.now()
    this.#moved()
    return this.now()
  }

  /** Calls `listener` after every `advance` and `set` (expiry sweeps hang off it). */
  onMove(listener: () => void): void {
    this.#moveListeners.push(listener)
  }

  #moved(): void {
    this.#moves++
    for (const listener of this.#moveListeners) listener()
  }

  /** The clock's position, as a snapshot keeps it. */
  state(): ClockState {
    return this.#frozen ? { frozen: true, now_ms: this.#frozenAt } : { frozen: false, offset_ms: this.#offsetMs }
  }

  /** Takes a snapshot's position (and its frozen or running mode, until the next reset). */
  restore(state: ClockState): void {
    this.#frozen = state.frozen
    if (state.frozen) this.#frozenAt = state.now_ms
    else this.#offsetMs = state.offset_ms
    this.#moved()
  }

  /** Back to the instant the clock was created with (frozen) or to wall time plus the original offset. */
  reset(): void {
    this.#frozen = this.#startsFrozen
    this.#frozenAt = this.#startMs
    this.#offsetMs = this.#initialOffsetMs
    this.#moves++
  }
}

function toMs(value: Date | string | number, field: 'start' | 'set'): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : rfc3339Ms(value, field)
  if (!Number.isFinite(ms)) throw new RangeError(`Failed to set the clock: "${field}" is not a time: ${describeValue(String(value))}`)
  if (ms < EARLIEST_MS || ms > LATEST_MS) {
    throw new RangeError(`Failed to set the clock: "${field}" must be a time from ${RANGE}, not ${describeValue(String(value))}`)
  }
  return ms
}

/**
 * A time given as text, read as Go reads RFC 3339 (what the services print and the options name): a day that
 * does not exist or a form `Date.parse` guesses at (`03/04/2026`) is refused, not moved to a nearby day.
 */
function rfc3339Ms(value: string, field: 'start' | 'set'): number {
  // The longest RFC 3339 time with nanoseconds is 35 characters; Go's message would repeat the whole text.
  if (value.length > 64) return Number.NaN
  try {
    const nanos = parseRfc3339(value)
    // Whole milliseconds, rounded down (BigInt division rounds towards zero, which before 1970 is up).
    return Number(nanos / 1_000_000n) - (nanos % 1_000_000n < 0n ? 1 : 0)
  } catch (error) {
    if (!(error instanceof TimeParseError)) throw error
    throw new RangeError(`Failed to set the clock: "${field}" is not an RFC 3339 time such as 2026-01-01T00:00:00Z: ${error.message}`)
  }
}
