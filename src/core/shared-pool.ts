import { errorKind } from './doppel-error.ts'
import type { JournalBudget } from './journal.ts'

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

/** Too many are waiting for a WorkerBudget already; nothing was started. */
class BusyError extends errorKind('BusyError', 'DOPPEL_BUSY') {}

/**
 * Worker threads several emulators run together: at most `workers` at once, whose heaps add up to at most
 * `memoryMb`. A job waits its turn (first come, first served) while `maxWaiting` others wait; beyond that it
 * is refused (BusyError) rather than queued without end.
 */
export class WorkerBudget {
  readonly workers: number
  readonly memoryMb: number
  readonly maxWaiting: number
  #running = 0
  #usedMb = 0
  readonly #waiting: { mb: number; start: () => void }[] = []

  constructor(workers: number, memoryMb: number, maxWaiting: number) {
    this.workers = workers
    this.memoryMb = memoryMb
    this.maxWaiting = maxWaiting
  }

  /**
   * Resolves, once there is room, to the release of a worker with `mb` of heap (at most `memoryMb`); throws
   * BusyError at once when `maxWaiting` jobs wait already.
   */
  async take(mb: number, what: string): Promise<() => void> {
    const need = Math.min(mb, this.memoryMb)
    if (!this.#fits(need) || this.#waiting.length > 0) {
      if (this.#waiting.length >= this.maxWaiting) {
        throw new BusyError(
          `Failed to parse ${what}: ${this.#running} documents are being parsed and ${this.#waiting.length} wait (at most ${this.workers} at once, ${this.memoryMb} MiB of parser heap together); try again when they are done`,
        )
      }
      await new Promise<void>((start) => this.#waiting.push({ mb: need, start }))
    } else {
      this.#start(need)
    }
    let released = false
    return () => {
      if (released) return
      released = true
      this.#running--
      this.#usedMb -= need
      // The first waiting job goes next, alone if it must: a large one is not passed over for ever by small ones.
      while (this.#waiting.length > 0 && this.#fits(this.#waiting[0]!.mb)) {
        const next = this.#waiting.shift()!
        this.#start(next.mb)
        next.start()
      }
    }
  }

  #fits(mb: number): boolean {
    return this.#running < this.workers && this.#usedMb + mb <= this.memoryMb
  }

  #start(mb: number): void {
    this.#running++
    this.#usedMb += mb
  }
}

/**
 * The pools the services keep for themselves, by a name each service chooses: made on first use with the
 * limit the first user's options give, then shared by every instance that shares these limits.
 */
export class NamedPools {
  readonly #pools = new Map<string, SharedPool>()

  /** The pool named `name`, made with `limit` if there is none yet. */
  pool(name: string, limit: number): SharedPool {
    let pool = this.#pools.get(name)
    if (pool === undefined) {
      pool = new SharedPool(limit)
      this.#pools.set(name, pool)
    }
    return pool
  }
}

/** The caps an emulator shares with the other instances of its server. */
export interface SharedLimits {
  /** The services' own pools (the fake cloud's metadata listeners). */
  pools: NamedPools
  /** Faults set at once (each is tried against every request of its instance). */
  faults: SharedPool
  /** Worker threads parsing large documents (fixtures), and their heaps together. */
  parseWorkers: WorkerBudget
  /** The bytes every instance's journal holds together; the oldest entries go first. */
  journalBytes: JournalBudget
}

export const DEFAULT_FAULT_LIMIT = 1000
/** Two parses at once (a core each on a small machine), in the heap one 8 MiB fixture needs, and four waiting. */
export const DEFAULT_PARSE_WORKERS = { workers: 2, memoryMb: 1536, maxWaiting: 4 }
