import { parseDuration } from './duration.ts'

export interface ClockOptions {
  /** Start time. Default: the wall clock at creation. */
  start?: Date | string | number
  /** When true, time moves only through `advance` and `set`. Default: false (wall time plus offset). */
  frozen?: boolean
}

/**
 * The emulator's clock: wall time shifted by an offset, or a frozen instant.
 * Every expiry, tidy, SigV4 skew check and timestamp reads it, so tests move time instead of waiting.
 */
/** The clock's position in a snapshot: a frozen instant, or the offset from wall time (which keeps running). */
export type ClockState = { frozen: true; now_ms: number } | { frozen: false; offset_ms: number }

export class Clock {
  #frozen: boolean
  readonly #startsFrozen: boolean
  #startMs: number
  #offsetMs = 0
  #initialOffsetMs = 0
  #frozenAt: number
  /** Counts moves, for cheap "did anything change" checks. */
  #moves = 0

  constructor(options: ClockOptions = {}) {
    this.#frozen = this.#startsFrozen = options.frozen ?? false
    this.#startMs = options.start === undefined ? Date.now() : toMs(options.start)
    this.#frozenAt = this.#startMs
    if (!this.#frozen) this.#offsetMs = this.#initialOffsetMs = this.#startMs - Date.now()
  }

  get frozen(): boolean {
    return this.#frozen
  }

  get moves(): number {
    return this.#moves
  }

  nowMs(): number {
    return this.#frozen ? this.#frozenAt : Date.now() + this.#offsetMs
  }

  now(): Date {
    return new Date(this.nowMs())
  }

  /** Moves time forward by a Go duration (`"73h"`), a number of seconds, or `"<n>d"`. */
  advance(by: string | number): Date {
    const ms = typeof by === 'number' ? by * 1000 : parseDuration(by, { allowFraction: true }) * 1000
    if (ms < 0) throw new RangeError(`Failed to advance the clock: negative duration "${by}"`)
    if (this.#frozen) this.#frozenAt += ms
    else this.#offsetMs += ms
    this.#moves++
    return this.now()
  }

  set(to: Date | string | number): Date {
    const ms = toMs(to)
    if (this.#frozen) this.#frozenAt = ms
    else this.#offsetMs = ms - Date.now()
    this.#moves++
    return this.now()
  }

  state(): ClockState {
    return this.#frozen ? { frozen: true, now_ms: this.#frozenAt } : { frozen: false, offset_ms: this.#offsetMs }
  }

  /** Takes a snapshot's position (and its frozen or running mode, until the next reset). */
  restore(state: ClockState): void {
    this.#frozen = state.frozen
    if (state.frozen) this.#frozenAt = state.now_ms
    else this.#offsetMs = state.offset_ms
    this.#moves++
  }

  /** Back to the instant the clock was created with (frozen) or to wall time plus the original offset. */
  reset(): void {
    this.#frozen = this.#startsFrozen
    this.#frozenAt = this.#startMs
    this.#offsetMs = this.#initialOffsetMs
    this.#moves++
  }
}

function toMs(value: Date | string | number): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value)
  if (!Number.isFinite(ms)) throw new RangeError(`Failed to set the clock: "${String(value)}" is not a time`)
  return ms
}
