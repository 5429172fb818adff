/**
 * Keyed in-memory collections. Every record has a primary key; secondary indexes are kept in step with
 * every write, so lookups and writes cost the same at 10 records and at 100k.
 *
 * @note @msw/data 1.x was measured for this role and rejected: see docs/decisions/store.md.
 */
import { errorKind } from './doppel-error.ts'

export interface CollectionOptions<T> {
  key: (record: T) => string
  /** Secondary indexes: name → the index value of a record (undefined = not indexed). */
  indexes?: Record<string, (record: T) => string | undefined>
}

/**
 * The JSON size of every record a store may hold, by default. Snapshots are written piece by piece, but
 * read back as one text (`PUT /_doppel/snapshot`, a `--data-dir` at start): this keeps a saved state below
 * V8's string limit (about 512 MB), with room for the parts a snapshot keeps outside the store, so that what
 * was saved loads again, while leaving room for the tokens of a load test's logins (600 to 800 bytes each:
 * over 300,000 before a login is refused).
 */
const DEFAULT_MAX_STATE_BYTES = 256 * 1024 * 1024

/** A write that would take the store past its size limit; nothing was written. */
export class StateTooLargeError extends errorKind('StateTooLargeError', 'DOPPEL_STATE_TOO_LARGE') {}

/** Writes and sizes across a store's collections, for cheap "did anything change" and "is it too big" checks. */
interface WriteCounter {
  count: number
  /** The JSON size of every record held. */
  bytes: number
  maxBytes: number
  /** Sizes measured beforehand, by record, while a restore fills the store (`Store.fillWith`). */
  known?: ReadonlyMap<object, number>
}

export class KeyedCollection<T> {
  readonly name: string
  #records = new Map<string, T>()
  /** Each record's JSON size, so a replace or delete gives back what it held. */
  #sizes = new Map<string, number>()
  #writes: WriteCounter
  #key: (record: T) => string
  #indexers: [string, (record: T) => string | undefined][]
  // An index value held by one record (the usual case: token accessors) maps to its key alone; a Set
  // is made only when a second record shares the value.
  #indexes = new Map<string, Map<string, string | Set<string>>>()

  constructor(name: string, options: CollectionOptions<T>, writes: WriteCounter = { count: 0, bytes: 0, maxBytes: DEFAULT_MAX_STATE_BYTES }) {
    this.name = name
    this.#writes = writes
    this.#key = options.key
    this.#indexers = Object.entries(options.indexes ?? {})
    for (const [index] of this.#indexers) this.#indexes.set(index, new Map())
  }

  get size(): number {
    return this.#records.size
  }

  get(key: string): T | undefined {
    return this.#records.get(key)
  }

  has(key: string): boolean {
    return this.#records.has(key)
  }

  /** Inserts or replaces the record with the same key; throws StateTooLargeError (nothing written) past the store's limit. */
  set(record: T): T {
    const key = this.#key(record)
    // Sizes are counted only to enforce a limit: a store without one measures nothing.
    if (this.#writes.maxBytes !== Infinity) {
      const size = this.#writes.known?.get(record as object) ?? JSON.stringify(record).length
      const freed = this.#sizes.get(key) ?? 0
      const bytes = this.#writes.bytes - freed + size
      if (size > freed && bytes > this.#writes.maxBytes) {
        throw new StateTooLargeError(`Failed to write: the state would grow past its limit of ${this.#writes.maxBytes} bytes of records; delete some or reset`)
      }
      this.#writes.bytes = bytes
      this.#sizes.set(key, size)
    }
    const previous = this.#records.get(key)
    if (previous !== undefined) this.#unindex(key, previous)
    this.#records.set(key, record)
    this.#index(key, record)
    this.#writes.count++
    return record
  }

  delete(key: string): T | undefined {
    const previous = this.#records.get(key)
    if (previous === undefined) return undefined
    this.#unindex(key, previous)
    this.#records.delete(key)
    this.#writes.bytes -= this.#sizes.get(key) ?? 0
    this.#sizes.delete(key)
    this.#writes.count++
    return previous
  }

  /**
   * Deletes every record `drop` picks; returns how many. When most go (a tidy of a list that all
   * expired), the survivors are moved into new maps in one pass instead of deleting the rest one by one.
   */
  deleteWhere(drop: (record: T) => boolean): number {
    const dropped: string[] = []
    for (const [key, record] of this.#records) if (drop(record)) dropped.push(key)
    if (dropped.length * 2 <= this.#records.size) {
      for (const key of dropped) this.delete(key)
      return dropped.length
    }
    const kept = new Map<string, T>()
    const sizes = new Map<string, number>()
    for (const map of this.#indexes.values()) map.clear()
    let freed = 0
    for (const [key, record] of this.#records) {
      const size = this.#sizes.get(key)
      if (drop(record)) {
        freed += size ?? 0
        continue
      }
      kept.set(key, record)
      if (size !== undefined) sizes.set(key, size)
      this.#index(key, record)
    }
    this.#records = kept
    this.#sizes = sizes
    this.#writes.bytes -= freed
    this.#writes.count++
    return dropped.length
  }

  /** Records whose secondary index `index` has the value `value`. */
  findBy(index: string, value: string): T[] {
    const keys = this.#indexMap(index).get(value)
    if (keys === undefined) return []
    if (typeof keys === 'string') return [this.#records.get(keys)!]
    const out: T[] = []
    for (const key of keys) out.push(this.#records.get(key)!)
    return out
  }

  findOneBy(index: string, value: string): T | undefined {
    const keys = this.#indexMap(index).get(value)
    if (keys === undefined) return undefined
    if (typeof keys === 'string') return this.#records.get(keys)
    for (const key of keys) return this.#records.get(key)
    return undefined
  }

  keys(): IterableIterator<string> {
    return this.#records.keys()
  }

  values(): IterableIterator<T> {
    return this.#records.values()
  }

  entries(): IterableIterator<[string, T]> {
    return this.#records.entries()
  }

  clear(): void {
    for (const size of this.#sizes.values()) this.#writes.bytes -= size
    this.#sizes.clear()
    this.#records.clear()
    for (const map of this.#indexes.values()) map.clear()
    this.#writes.count++
  }

  #indexMap(index: string): Map<string, string | Set<string>> {
    const map = this.#indexes.get(index)
    if (!map) throw new Error(`Failed to query collection "${this.name}": no index "${index}"`)
    return map
  }

  #index(key: string, record: T): void {
    for (const [index, indexer] of this.#indexers) {
      const value = indexer(record)
      if (value === undefined) continue
      const map = this.#indexes.get(index)!
      const keys = map.get(value)
      if (keys === undefined || keys === key) map.set(value, key)
      else if (typeof keys === 'string') map.set(value, new Set([keys, key]))
      else keys.add(key)
    }
  }

  #unindex(key: string, record: T): void {
    for (const [index, indexer] of this.#indexers) {
      const value = indexer(record)
      if (value === undefined) continue
      const map = this.#indexes.get(index)!
      const keys = map.get(value)
      if (keys === undefined) continue
      if (typeof keys === 'string') {
        if (keys === key) map.delete(value)
        continue
      }
      keys.delete(key)
      if (keys.size === 0) map.delete(value)
    }
  }
}

/** The collections of one emulator instance. */
export class Store {
  #collections = new Map<string, KeyedCollection<unknown>>()
  #writes: WriteCounter

  constructor(maxBytes = DEFAULT_MAX_STATE_BYTES) {
    if (!(maxBytes === Infinity || (Number.isSafeInteger(maxBytes) && maxBytes > 0))) {
      throw new RangeError(`maxStateBytes must be a whole number above 0, or Infinity for no limit, not ${maxBytes}`)
    }
    this.#writes = { count: 0, bytes: 0, maxBytes }
  }

  /** The JSON size of every record held (not counted, 0, when `maxBytes` is Infinity). */
  get bytes(): number {
    return this.#writes.bytes
  }

  /** The most `bytes` may be; a write past it throws StateTooLargeError. Infinity: no limit, and no sizes counted. */
  get maxBytes(): number {
    return this.#writes.maxBytes
  }

  /** Sets, deletes and clears so far, in every collection. */
  get writes(): number {
    return this.#writes.count
  }

  collection<T>(name: string, options: CollectionOptions<T>): KeyedCollection<T> {
    const existing = this.#collections.get(name)
    if (existing) return existing as KeyedCollection<T>
    const created = new KeyedCollection<T>(name, options, this.#writes)
    this.#collections.set(name, created as KeyedCollection<unknown>)
    return created
  }

  /**
   * Every collection's records as they are now, by key: the stored records themselves, not copies (a write
   * replaces a record, never changes one), for an answer written after this turn.
   * @internal
   */
  entries(): [name: string, records: [key: string, record: unknown][]][] {
    return [...this.#collections].map(([name, collection]) => [name, [...collection.entries()]])
  }

  /** A JSON-ready copy of every record, for "state unchanged" assertions and `inspect`. */
  snapshot(): Record<string, Record<string, unknown>> {
    const out: Record<string, Record<string, unknown>> = {}
    for (const [name, collection] of this.#collections) {
      const records: Record<string, unknown> = {}
      for (const [key, record] of collection.entries()) records[key] = structuredClone(record)
      out[name] = records
    }
    return out
  }

  clear(): void {
    for (const collection of this.#collections.values()) collection.clear()
  }

  /**
   * Runs `fill` with the JSON sizes of records measured beforehand (a restore measures them in slices), so
   * that setting each of them does not measure it again.
   * @internal
   */
  fillWith(known: ReadonlyMap<object, number>, fill: () => void): void {
    this.#writes.known = known
    try {
      fill()
    } finally {
      this.#writes.known = undefined
    }
  }
}
