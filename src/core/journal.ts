export interface JournalEntry {
  id: number
  time: string
  service: string
  method: string
  url: string
  status: number
  durationMs: number
  /** Set for calls the emulator made to its own fake cloud without HTTP. */
  internal?: boolean
}

/** A bounded record of the requests an emulator instance answered, newest last. */
export class Journal {
  readonly limit: number
  // A ring: once full, each record overwrites the oldest instead of shifting the array.
  #ring: JournalEntry[] = []
  #next = 1

  constructor(limit = 1000) {
    this.limit = limit
  }

  record(entry: Omit<JournalEntry, 'id'>): JournalEntry {
    const full = { id: this.#next, ...entry }
    this.#ring[(this.#next - 1) % this.limit] = full
    this.#next++
    return full
  }

  entries(): JournalEntry[] {
    const count = this.#ring.length
    if (count < this.limit) return [...this.#ring]
    const oldest = (this.#next - 1) % this.limit
    return [...this.#ring.slice(oldest), ...this.#ring.slice(0, oldest)]
  }

  /** How many requests were recorded since the last clear, including those the bound dropped. */
  get total(): number {
    return this.#next - 1
  }

  clear(): void {
    this.#ring = []
    this.#next = 1
  }
}
