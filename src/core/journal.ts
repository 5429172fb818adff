import type { Explanation } from './explanation.ts'

/** A request as the journal keeps it: secrets redacted, the body cut at the journal's body limit. */
export interface JournalRequest {
  method: string
  /** Path and query, credential query parameters redacted. */
  path: string
  headers: Record<string, string>
  body: string
  /** Whether the body was cut at the journal's body limit. */
  truncated: boolean
}

/** An answer as the journal keeps it: the same headers and body the client received, bounded and redacted. */
export interface JournalResponse {
  status: number
  headers: Record<string, string>
  body: string
  truncated: boolean
}

export interface JournalEntry {
  id: number
  time: string
  service: string
  method: string
  url: string
  status: number
  durationMs: number
  /**
   * Set for a provider call the emulator answered with its own fake cloud without HTTP (a login's STS,
   * EC2 and IAM calls): its request is the call's form body, without the signed headers.
   */
  internal?: boolean
  request: JournalRequest
  /** Absent for a dropped connection, which had no answer. */
  response?: JournalResponse
  /** Why the request was refused (see `core/explanation.ts`): on refusals only. */
  explanation?: Explanation
}

/**
 * A part of an entry formatted only when the journal is read (once, then kept): the exchange's headers and
 * bodies are redacted and decoded when someone looks, not on every request.
 */
export type WhenRead<T> = T | (() => T)

/** What the journal stores per request: numbers, formatted only when the entries are read. */
export interface JournalRecord {
  timeMs: number
  service: string
  method: string
  url: string
  status: number
  /** Unrounded milliseconds. */
  duration: number
  request: WhenRead<JournalRequest>
  response?: WhenRead<JournalResponse>
  explanation?: Explanation
  /** A call the emulator made to its own fake cloud without HTTP (a login's provider calls). */
  internal?: true
}

/** What the journal shows in place of a secret. */
export const REDACTED = '<redacted>'

/** Text as a kept body: whole up to `limit` bytes, else its first `limit` bytes (a split character dropped). */
export function boundedText(text: string, limit: number): { body: string; truncated: boolean } {
  if (text.length <= limit / 4) return { body: text, truncated: false }
  const bytes = Buffer.from(text)
  if (bytes.byteLength <= limit) return { body: text, truncated: false }
  return { body: new TextDecoder().decode(bytes.subarray(0, limit), { stream: true }), truncated: true }
}

/** The default cap on each kept body, each way: 16 KiB. */
export const JOURNAL_BODY_LIMIT = 16 * 1024

/**
 * A bounded record of the requests an emulator instance answered, newest last: `limit` entries, each body
 * cut at `bodyLimit` bytes, so the journal's memory has a ceiling whatever the traffic.
 */
export class Journal {
  readonly limit: number
  readonly bodyLimit: number
  // A ring: once full, each record overwrites the oldest instead of shifting the array.
  #ring: (JournalRecord & { id: number })[] = []
  #next = 1

  constructor(limit = 1000, bodyLimit = JOURNAL_BODY_LIMIT) {
    this.limit = limit
    this.bodyLimit = bodyLimit
  }

  /** Stores a record; returns its id. */
  record(record: JournalRecord): number {
    const stored = record as JournalRecord & { id: number }
    stored.id = this.#next
    this.#ring[(this.#next - 1) % this.limit] = stored
    return this.#next++
  }

  entries(): JournalEntry[] {
    const count = this.#ring.length
    const oldest = count < this.limit ? 0 : (this.#next - 1) % this.limit
    const out: JournalEntry[] = []
    for (let i = 0; i < count; i++) out.push(entry(this.#ring[(oldest + i) % count]!))
    return out
  }

  /** The entry with this id, while the journal still holds it. */
  entry(id: number): JournalEntry | undefined {
    if (id < 1 || id >= this.#next || id < this.#next - this.#ring.length) return undefined
    const stored = this.#ring[(id - 1) % this.limit]
    return stored?.id === id ? entry(stored) : undefined
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

function entry(r: JournalRecord & { id: number }): JournalEntry {
  if (typeof r.request === 'function') r.request = r.request()
  if (typeof r.response === 'function') r.response = r.response()
  return {
    id: r.id,
    time: new Date(r.timeMs).toISOString(),
    service: r.service,
    method: r.method,
    url: r.url,
    status: r.status,
    durationMs: Math.round(r.duration * 1000) / 1000,
    request: r.request,
    ...(r.internal && { internal: true }),
    ...(r.response && { response: r.response }),
    ...(r.explanation && { explanation: r.explanation }),
  }
}
