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
  #entries: JournalEntry[] = []
  #next = 1

  constructor(limit = 1000) {
    this.limit = limit
  }

  record(entry: Omit<JournalEntry, 'id'>): JournalEntry {
    const full = { id: this.#next++, ...entry }
    this.#entries.push(full)
    if (this.#entries.length > this.limit) this.#entries.splice(0, this.#entries.length - this.limit)
    return full
  }

  entries(): JournalEntry[] {
    return [...this.#entries]
  }

  /** How many requests were recorded since the last clear, including those the bound dropped. */
  get total(): number {
    return this.#next - 1
  }

  clear(): void {
    this.#entries = []
    this.#next = 1
  }
}
