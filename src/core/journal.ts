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

/** A part of an entry as kept until the journal is read: `read()` formats it. */
export interface Unread<T> {
  read(): T
}

/**
 * A part of an entry formatted only when the journal is read (once, then kept): the exchange's headers and
 * bodies are redacted and decoded when someone looks, not on every request.
 */
type WhenRead<T> = T | Unread<T>

function isUnread<T>(part: WhenRead<T>): part is Unread<T> {
  return typeof (part as Partial<Unread<T>>).read === 'function'
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
const JOURNAL_BODY_LIMIT = 16 * 1024

/** The default cap on what the journals of a server's instances hold together: 128 MiB. */
const JOURNAL_BYTES_LIMIT = 128 * 1024 * 1024

/** One entry as the byte budget counts it. */
interface Held {
  journal: Journal
  id: number
  bytes: number
  live: boolean
}

/**
 * A record as the journal holds it, with its id and its place in the byte budget: one object of one shape
 * for each entry. The journal keeps a thousand of them alive, and each object one keeps costs the server's
 * garbage collector (docs/performance.md "What the journal's entries cost").
 */
class Stored implements JournalRecord, Held {
  readonly journal: Journal
  readonly id: number
  readonly bytes: number
  live = true
  readonly timeMs: number
  readonly service: string
  readonly method: string
  readonly url: string
  readonly status: number
  readonly duration: number
  request: WhenRead<JournalRequest>
  response: WhenRead<JournalResponse> | undefined
  readonly explanation: Explanation | undefined
  readonly internal: true | undefined

  constructor(journal: Journal, id: number, bytes: number, record: JournalRecord) {
    this.journal = journal
    this.id = id
    this.bytes = bytes
    this.timeMs = record.timeMs
    this.service = record.service
    this.method = record.method
    this.url = record.url
    this.status = record.status
    this.duration = record.duration
    this.request = record.request
    this.response = record.response
    this.explanation = record.explanation
    this.internal = record.internal
  }
}

/**
 * The bytes the journals of several instances hold together (a server's root and its tenants share one):
 * past the limit the oldest entries go first, whichever journal holds them. A journal's count bound alone let
 * 100 tenants with full journals reach gigabytes.
 */
export class JournalBudget {
  readonly limit: number
  #bytes = 0
  /** Entries in the order they were recorded, oldest first from `#head`; ones already gone are skipped. */
  #queue: Held[] = []
  #head = 0
  /** How many entries of the queue are live. */
  #live = 0

  constructor(limit = JOURNAL_BYTES_LIMIT) {
    if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`a journal budget must be a whole number of bytes ≥ 0, not ${limit}`)
    this.limit = limit
  }

  /** The bytes the entries held now take (as estimated when recorded). */
  get bytes(): number {
    return this.#bytes
  }

  /** Counts a new entry, then drops the oldest entries of any journal until all fit. */
  add(held: Held): void {
    this.#queue.push(held)
    this.#live++
    this.#bytes += held.bytes
    while (this.#bytes > this.limit && this.#head < this.#queue.length) {
      const oldest = this.#queue[this.#head++]!
      if (oldest.live) oldest.journal.forget(oldest.id)
    }
    // Keep the queue about as long as what it holds, not as every entry ever recorded: a journal's
    // overwritten entries leave it only here (under the byte limit nothing else takes them off).
    if (this.#queue.length - this.#head > 2 * this.#live + 1024) {
      this.#queue = this.#queue.slice(this.#head).filter((entry) => entry.live)
      this.#head = 0
    } else if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head)
      this.#head = 0
    }
  }

  /** An entry is gone (overwritten, forgotten, cleared): its bytes are free. */
  release(held: Held): void {
    if (!held.live) return
    held.live = false
    this.#live--
    this.#bytes -= held.bytes
  }
}

/**
 * A bounded record of the requests an emulator instance answered, newest last: `limit` entries, each body
 * cut at `bodyLimit` bytes, and all of them within the byte budget it shares with its server's other
 * instances, so the journals' memory has a ceiling whatever the traffic and however many tenants.
 */
export class Journal {
  /** How many entries it keeps (`journalLimit`). */
  readonly limit: number
  /** How many bytes of each body an entry keeps (`journalBodyLimit`). */
  readonly bodyLimit: number
  readonly budget: JournalBudget
  // A ring: once full, each record overwrites the oldest instead of shifting the array.
  #ring: (Stored | undefined)[] = []
  #next = 1
  /** Entries before this id are gone (the byte budget took them), even if the ring still has their slots. */
  #first = 1

  constructor(limit = 1000, bodyLimit = JOURNAL_BODY_LIMIT, budget = new JournalBudget()) {
    this.limit = limit
    this.bodyLimit = bodyLimit
    this.budget = budget
  }

  /** Stores a record that takes about `bytes` of memory; returns its id. */
  record(record: JournalRecord, bytes = 0): number {
    const stored = new Stored(this, this.#next, bytes, record)
    const slot = (this.#next - 1) % this.limit
    const overwritten = this.#ring[slot]
    if (overwritten) this.budget.release(overwritten)
    this.#ring[slot] = stored
    if (this.#next - this.#first >= this.limit) this.#first = this.#next - this.limit + 1
    this.#next++
    this.budget.add(stored)
    return stored.id
  }

  /** Drops the entry `id` and every older one (the byte budget's oldest): for `JournalBudget`. */
  forget(id: number): void {
    for (; this.#first <= id; this.#first++) {
      const slot = (this.#first - 1) % this.limit
      const stored = this.#ring[slot]
      if (stored?.id !== this.#first) continue
      this.budget.release(stored)
      this.#ring[slot] = undefined
    }
  }

  /** Every entry held, oldest first: the exchange redacted and bounded, and a refusal's explanation. */
  entries(): JournalEntry[] {
    return this.#ordered().map(entry)
  }

  /**
   * The entries held now, each formatted (and passed through `map`) only when the iteration reaches it: for
   * an answer written piece by piece. An entry the bounds drop before it is reached is left out.
   */
  *lazyEntries<T>(map: (entry: JournalEntry) => T): Generator<T> {
    const last = this.#next
    for (let id = this.#first; id < last; id++) {
      const held = this.entry(id)
      if (held) yield map(held)
    }
  }

  /** The entry with this id, while the journal still holds it. */
  entry(id: number): JournalEntry | undefined {
    if (id < this.#first || id >= this.#next) return undefined
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
    for (const record of this.#ordered()) if (matches(record)) count++
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

  /** The records held, oldest first (the byte budget may have taken some the ring still has slots for). */
  #ordered(): Stored[] {
    const held: Stored[] = []
    for (let id = this.#first; id < this.#next; id++) {
      const stored = this.#ring[(id - 1) % this.limit]
      if (stored?.id === id) held.push(stored)
    }
    return held
  }

  /** How many requests were recorded since the last clear, including those the bounds dropped. */
  get total(): number {
    return this.#next - 1
  }

  /** Forgets every entry (`reset()` does it too). */
  clear(): void {
    for (const stored of this.#ring) if (stored) this.budget.release(stored)
    this.#ring = []
    this.#next = 1
    this.#first = 1
  }
}

/** How many of the held requests a failed `verify` lists. */
const VERIFY_SHOWN = 10

/** The path without the query, which may carry credentials. */
function pathOf(url: string): string {
  return new URL(url).pathname
}

function entry(r: Stored): JournalEntry {
  if (isUnread(r.request)) r.request = r.request.read()
  if (r.response !== undefined && isUnread(r.response)) r.response = r.response.read()
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
