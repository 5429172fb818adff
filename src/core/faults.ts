import type { SharedPool } from './shared-pool.ts'
import { compilePathPattern, PATTERN_LIMIT, type PathPattern } from './path-pattern.ts'
import type { Random } from './random.ts'
import { errorKind } from './doppel-error.ts'
import { unknownField } from './did-you-mean.ts'

/** A fault to inject: which requests (`method`, `path`) and what happens to them. */
export interface FaultInput {
  /** Only requests of this method; default any. */
  method?: string
  /** An msw-style path pattern (`/api/v2/*`, `/v1/auth/cloud/role/:name`), or a full URL pattern. */
  path: string
  /** Answer with this status (400 to 599) and the service's own error body. */
  status?: number
  /** Delay the answer by this many milliseconds (at most ten minutes). */
  latency_ms?: number
  /** Drop the connection: a network error for the client. */
  drop?: boolean
  /** Fire for this many requests, then go; default until removed. */
  times?: number
}

/** A fault as set: its input, its id and how often it fired. */
export interface Fault extends FaultInput {
  /** `fault-` and 12 hex digits; `remove` takes it. */
  id: string
  /** How many more times it fires; undefined = until cleared. */
  remaining?: number
  /** How many requests it has fired for. */
  hits: number
}

export class FaultError extends errorKind('FaultError', 'DOPPEL_INVALID_FAULT') {}

/** Injected faults of one emulator instance (WireMock-style): a status, a delay or a dropped connection. */
export class Faults {
  #faults = new Map<string, { fault: Fault; pattern: PathPattern }>()
  #random: Random
  #pool: SharedPool
  /** Counts changes (adds, removals, hits), for cheap "did anything change" checks. */
  #changes = 0

  constructor(random: Random, pool: SharedPool) {
    this.#random = random
    this.#pool = pool
  }

  /**
   * Adds a fault; the next matching requests get it (`times` of them, or all until removed). Throws
   * FaultError for one it refuses (a status outside 400–599, a delay past ten minutes, an unknown key).
   *
   * @example
   * doppel.faults.add({ method: 'POST', path: '/v1/auth/cloud/login', status: 503, times: 1 })
   */
  add(input: unknown): Fault {
    const fault = validateFault(input)
    const id = `fault-${this.#random.hex(12)}`
    const entry = { fault: { ...fault, id, hits: 0, remaining: fault.times }, pattern: compilePathPattern(fault.path) }
    if (!this.#pool.hold(entry)) throw new FaultError(limitMessage(this.#pool.limit))
    this.#faults.set(id, entry)
    this.#changes++
    return { ...entry.fault }
  }

  /** How many faults are set: a caller that must build a URL to ask `take` can skip it when none is. */
  get size(): number {
    return this.#faults.size
  }

  /** Counts adds, removals and hits, for cheap "did anything change" checks. */
  get changes(): number {
    return this.#changes
  }

  /** How many faults a restore may bring: the places the shared limit leaves, with those this instance's faults hold now. */
  get room(): number {
    return this.#pool.free + this.#faults.size
  }

  /**
   * Replaces every fault with saved ones (from `list()`, checked by `checkSavedFault`), in order. The caller
   * has checked they fit in `room` (see `checkFaultRoom`): a restore cannot fail halfway.
   */
  restore(faults: readonly Fault[]): void {
    this.#releaseAll()
    for (const fault of faults) {
      const entry = { fault: { ...fault }, pattern: compilePathPattern(fault.path) }
      if (!this.#pool.hold(entry)) throw new RangeError('Failed to restore the faults: more than the room checked beforehand')
      this.#faults.set(fault.id, entry)
    }
    this.#changes++
  }

  /** The faults set, with their hits and remaining counts. */
  list(): Fault[] {
    return [...this.#faults.values()].map(({ fault }) => ({ ...fault }))
  }

  /** Removes one fault by id; false when there was none. */
  remove(id: string): boolean {
    this.#changes++
    const entry = this.#faults.get(id)
    if (entry === undefined) return false
    this.#pool.release(entry)
    return this.#faults.delete(id)
  }

  /** Removes every fault. */
  clear(): void {
    this.#releaseAll()
    this.#changes++
  }

  #releaseAll(): void {
    for (const entry of this.#faults.values()) this.#pool.release(entry)
    this.#faults.clear()
  }

  /** The first fault matching the request, consumed by one use. */
  take(method: string, url: URL): Fault | undefined {
    if (this.#faults.size === 0) return undefined
    for (const [id, entry] of this.#faults) {
      const { fault, pattern } = entry
      if (fault.method && fault.method.toUpperCase() !== method.toUpperCase()) continue
      if (!pattern.testUrl(url)) continue
      fault.hits++
      this.#changes++
      if (fault.remaining !== undefined) {
        fault.remaining--
        if (fault.remaining <= 0) {
          this.#faults.delete(id)
          this.#pool.release(entry)
        }
      }
      return { ...fault }
    }
    return undefined
  }
}

const limitMessage = (limit: number) =>
  `Failed to add a fault: ${limit} faults are set, the limit (faultLimit, --fault-limit; shared by a server's tenants); remove one or reset`

/** Refuses (FaultError) saved faults that the shared limit has no room for: a restore holds the cap as `add` does. */
export function checkFaultRoom(faults: Faults, count: number): void {
  const room = faults.room
  if (count > room) {
    throw new FaultError(`Failed to restore ${count} faults: the limit (faultLimit, --fault-limit; shared by a server's tenants) leaves room for ${room}`)
  }
}

/** A fault's fields as `add` takes them (a misspelt one is refused: `"time": 1` would fire forever). */
const INPUT_FIELDS = ['method', 'path', 'status', 'latency_ms', 'drop', 'times']
/** A saved fault's (`list()`, a snapshot's): the input's, its id and its counts. */
const SAVED_FIELDS = ['id', 'hits', 'remaining', ...INPUT_FIELDS]

/** A fault as `list()` gives it, checked as `add` checks its input; throws FaultError. */
export function checkSavedFault(input: unknown): Fault {
  const f = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>
  const unknown = Object.keys(f).find((key) => !SAVED_FIELDS.includes(key))
  if (unknown !== undefined) throw new FaultError(`Failed to read a fault: "${unknown}" is not a known field`)
  const fault = validateFault(input, SAVED_FIELDS)
  if (typeof f.id !== 'string' || f.id === '') throw new FaultError('Failed to read a fault: "id" must be a non-empty string')
  if (!Number.isSafeInteger(f.hits) || (f.hits as number) < 0) throw new FaultError('Failed to read a fault: "hits" must be a count')
  if (f.remaining !== undefined && (!Number.isSafeInteger(f.remaining) || (f.remaining as number) < 1)) {
    throw new FaultError('Failed to read a fault: "remaining" must be a positive integer')
  }
  return { ...fault, id: f.id, hits: f.hits as number, ...(f.remaining !== undefined && { remaining: f.remaining as number }) }
}

function validateFault(input: unknown, fields = INPUT_FIELDS): FaultInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new FaultError('Failed to add a fault: the body must be a JSON object')
  }
  const f = input as Record<string, unknown>
  const unknown = unknownField(f, fields)
  if (unknown !== undefined) throw new FaultError(`Failed to add a fault: ${unknown}`)
  if (typeof f.path !== 'string' || f.path === '') throw new FaultError('Failed to add a fault: "path" must be a non-empty string')
  if (f.path.length > PATTERN_LIMIT) throw new FaultError(`Failed to add a fault: "path" must be at most ${PATTERN_LIMIT} characters`)
  if (f.method !== undefined && typeof f.method !== 'string') throw new FaultError('Failed to add a fault: "method" must be a string')
  const kinds = ['status', 'latency_ms', 'drop'].filter((k) => f[k] !== undefined)
  if (kinds.length !== 1) throw new FaultError('Failed to add a fault: give exactly one of "status", "latency_ms" or "drop"')
  if (f.status !== undefined && (!Number.isInteger(f.status) || (f.status as number) < 400 || (f.status as number) > 599)) {
    throw new FaultError('Failed to add a fault: "status" must be an integer from 400 to 599')
  }
  if (f.latency_ms !== undefined && (typeof f.latency_ms !== 'number' || f.latency_ms < 0 || f.latency_ms > 600_000)) {
    throw new FaultError('Failed to add a fault: "latency_ms" must be a number from 0 to 600000')
  }
  if (f.drop !== undefined && f.drop !== true) throw new FaultError('Failed to add a fault: "drop" must be true')
  if (f.times !== undefined && (!Number.isInteger(f.times) || (f.times as number) < 1)) {
    throw new FaultError('Failed to add a fault: "times" must be a positive integer')
  }
  return {
    path: f.path,
    ...(f.method !== undefined && { method: (f.method as string).toUpperCase() }),
    ...(f.status !== undefined && { status: f.status as number }),
    ...(f.latency_ms !== undefined && { latency_ms: f.latency_ms as number }),
    ...(f.drop !== undefined && { drop: true }),
    ...(f.times !== undefined && { times: f.times as number }),
  }
}
