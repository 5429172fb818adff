import type { Explanation } from './explanation.ts'
import { compileJournalMatch, describeJournalMatch, JournalVerifyError, type JournalMatch } from './journal-match.ts'

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

/** One request the instance answered, as `journal.entries()` gives it. */
export interface JournalEntry {
  /** Counts from 1 since the last clear. */
  id: number
  /** When it was answered, on the emulator clock (ISO 8601). */
  time: string
  /** The service that answered: `cloud-auth`, `registry`, `fake-cloud`, `control`, or `none`. */
  service: string
  method: string
  url: string
  /** The answer's status; `0` for a dropped connection. */
  status: number
  durationMs: number
  /** Set for calls the emulator made to its own fake cloud without HTTP. */
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
}

/** The default cap on each kept body, each way: 16 KiB. */
export const JOURNAL_BODY_LIMIT = 16 * 1024

/**
 * A bounded record of the requests an emulator instance answered, newest last: `limit` entries, each body
 * cut at `bodyLimit` bytes, so the journal's memory has a ceiling whatever the traffic.
 */
export class Journal {
  /** How many entries it keeps (`journalLimit`). */
  readonly limit: number
  /** How many bytes of each body an entry keeps (`journalBodyLimit`). */
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

  /** Every entry held, oldest first: the exchange redacted and bounded, and a refusal's explanation. */
  entries(): JournalEntry[] {
    return this.#ordered().map(entry)
  }

  /** The entry with this id, while the journal still holds it. */
  entry(id: number): JournalEntry | undefined {
    if (id < 1 || id >= this.#next || id < this.#next - this.#ring.length) return undefined
    const stored = this.#ring[(id - 1) % this.limit]
    return stored?.id === id ? entry(stored) : undefined
  }

  /**
   * How many requests the journal holds that match (every field given must): WireMock's `count`.
   *
   * @example
   * doppel.journal.count({ method: 'POST', path: '/v1/auth/cloud/login' })
   */
  count(match: JournalMatch = {}): number {
    const matches = compileJournalMatch(match)
    let count = 0
    for (const record of this.#ring) if (matches(record)) count++
    return count
  }

  /**
   * Throws JournalVerifyError (code `DOPPEL_VERIFY_FAILED`) unless the journal holds exactly `times`
   * matching requests, or at least one when `times` is omitted: WireMock's `verify`. The message names
   * the match, the count and the requests the journal does hold, newest last.
   *
   * @example
   * doppel.journal.verify({ method: 'PATCH', path: '/api/v2/organizations/:org/registry-modules/*' }, 1)
   */
  verify(match: JournalMatch, times?: number): void {
    const seen = this.count(match)
    if (times === undefined ? seen > 0 : seen === times) return
    const wanted = times === undefined ? 'at least 1 request' : `exactly ${times} request${times === 1 ? '' : 's'}`
    const held = this.#ordered()
    const shown = held.slice(-VERIFY_SHOWN).map((r) => `  ${r.method} ${pathOf(r.url)} → ${r.status || 'dropped'} (${r.service})`)
    const list =
      held.length === 0
        ? 'The journal holds no requests.'
        : `The journal holds ${held.length}${held.length > VERIFY_SHOWN ? `, the last ${VERIFY_SHOWN}` : ''}:\n${shown.join('\n')}`
    throw new JournalVerifyError(`Expected ${wanted} matching ${describeJournalMatch(match)}, saw ${seen}. ${list}`)
  }

  /** The records held, oldest first. */
  #ordered(): (JournalRecord & { id: number })[] {
    const count = this.#ring.length
    const oldest = count < this.limit ? 0 : (this.#next - 1) % this.limit
    return Array.from({ length: count }, (_, i) => this.#ring[(oldest + i) % count]!)
  }

  /** How many requests were recorded since the last clear, including those the bound dropped. */
  get total(): number {
    return this.#next - 1
  }

  /** Forgets every entry (`reset()` does it too). */
  clear(): void {
    this.#ring = []
    this.#next = 1
  }
}

/** How many of the held requests a failed `verify` lists. */
const VERIFY_SHOWN = 10

/** The path without the query, which may carry credentials. */
function pathOf(url: string): string {
  return new URL(url).pathname
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
    ...(r.response && { response: r.response }),
    ...(r.explanation && { explanation: r.explanation }),
  }
}
