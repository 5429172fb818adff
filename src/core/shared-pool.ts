/**
 * A cap that several emulators draw from together: a server's root instance and every tenant it creates
 * share one pool, so the cap bounds the server, not each instance. It holds the things it counts (a
 * listening socket, a fault), so releasing one twice, or one it never held, changes nothing.
 */
export class SharedPool {
  readonly limit: number
  readonly #held = new Set<object>()

  constructor(limit: number) {
    if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`a pool's limit must be a whole number ≥ 0, not ${limit}`)
    this.limit = limit
  }

  /** Takes a place for `item`; false when the pool is full. */
  hold(item: object): boolean {
    if (this.#held.has(item)) return true
    if (this.#held.size >= this.limit) return false
    this.#held.add(item)
    return true
  }

  /** How many more places there are. */
  get free(): number {
    return this.limit - this.#held.size
  }

  release(item: object): void {
    this.#held.delete(item)
  }
}

/** The caps an emulator shares with the other instances of its server. */
export interface SharedLimits {
  /** Per-instance IMDS listeners (each a listening socket) open at once. */
  imdsListeners: SharedPool
  /** Faults set at once (each is tried against every request of its instance). */
  faults: SharedPool
}

export const DEFAULT_IMDS_LISTENER_LIMIT = 64
export const DEFAULT_FAULT_LIMIT = 1000
