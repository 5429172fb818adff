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

/** What the journal stores per request: numbers, formatted only when the entries are read. */
export interface JournalRecord {
  timeMs: number
  service: string
  method: string
  url: string
  status: number
  /** Unrounded milliseconds. */
  duration: number
}

/** A bounded record of the requests an emulator instance answered, newest last. */
export class Journal {
  readonly limit: number
  // A ring: once full, each record overwrites the oldest instead of shifting the array.
  #ring: (JournalRecord & { id: number })[] = []
  #next = 1

  constructor(limit = 1000) {
    this.limit = limit
  }

  record(record: JournalRecord): void {
    const stored = record as JournalRecord & { id: number }
    stored.id = this.#next
    this.#ring[(this.#next - 1) % this.limit] = stored
    this.#next++
  }

  entries(): JournalEntry[] {
    const count = this.#ring.length
    const oldest = count < this.limit ? 0 : (this.#next - 1) % this.limit
    const out: JournalEntry[] = []
    for (let i = 0; i < count; i++) {
      const r = this.#ring[(oldest + i) % count]!
      out.push({
        id: r.id,
        time: new Date(r.timeMs).toISOString(),
        service: r.service,
        method: r.method,
        url: r.url,
        status: r.status,
        durationMs: Math.round(r.duration * 1000) / 1000,
      })
    }
    return out
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
