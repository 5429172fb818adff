/**
 * A provider call the fake cloud answers in process meets the emulator's faults and is journaled, as it
 * would be over HTTP: a fault on the call's URL (its endpoint, or the AWS host the SDK would use) or on
 * the fake cloud's face for its service (`/_doppel/cloud/sts/`, `iam/`, `ec2/`) fails, slows or drops it,
 * and the journal keeps an `internal` entry for every attempt, beside the login's own.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { errorKind } from '../../../core/doppel-error.ts'
import type { Fault } from '../../../core/faults.ts'
import type { RequestContext } from '../../../core/glossary.ts'
import { boundedText, REDACTED, type JournalRecord, type JournalRequest, type JournalResponse, type Unread } from '../../../core/journal.ts'
import { awsFacePath, CloudError, cloudFaultError, type QueryService } from '../../fake-cloud/index.ts'
import { sendFailed } from './remote-provider.ts'
import { isRetryable } from './upstream-http.ts'

/** Where a call goes: the service that answers it and the URL the SDK would send it to. */
interface CallSite {
  service: QueryService
  url: string
  /** POST, as the SDK sends every query API call; the iam login replays the client's method. */
  method?: string
}

/** A call that met a `drop` fault (or the server's stop during a `latency_ms` one): no answer came; the message is Go's reason. */
export class NoAnswer extends errorKind('NoAnswer', 'DOPPEL_UPSTREAM_FAILED') {}

/** Faults are matched as on a request: any host, so that a path pattern of the face matches too. */
const FACE_ORIGIN = 'http://localhost'

/**
 * The fault set for this call, met: a delay is waited out (ended by the server's stop), a drop throws
 * NoAnswer; resolves to the status of a status fault (the call is then not made), else undefined. While no
 * fault is set, nothing: no promise, no URL.
 */
export function meetFault(context: RequestContext, site: CallSite): Promise<number | undefined> | undefined {
  const { faults } = context.emulator
  if (faults.size === 0) return undefined
  const method = site.method ?? 'POST'
  const fault = faults.take(method, new URL(site.url)) ?? faults.take(method, new URL(awsFacePath(site.service), FACE_ORIGIN))
  return fault === undefined ? undefined : faultOutcome(fault, context.signal)
}

async function faultOutcome(fault: Fault, signal: AbortSignal | undefined): Promise<number | undefined> {
  if (fault.drop) throw new NoAnswer('EOF')
  if (fault.latency_ms) {
    try {
      await sleep(fault.latency_ms, undefined, signal && { signal })
    } catch {
      throw new NoAnswer('context canceled')
    }
  }
  return fault.status
}

/**
 * A provider call answered in process by `run`, as the SDK makes it over HTTP: faults met first, every
 * attempt journaled, a throttled, failing (5xx but 501) or unanswered attempt retried up to `maxRetries`
 * times (without waiting: no network to wait for), as the SDK's retryer does.
 */
export async function observedCall<T>(context: RequestContext, site: CallSite, maxRetries: number, form: () => string, run: () => T): Promise<T> {
  for (let attempts = 1; ; attempts++) {
    const started = performance.now()
    try {
      const pending = meetFault(context, site)
      const status = pending && (await pending)
      if (status !== undefined) throw cloudFaultError(status)
      const value = run()
      journalCall(context, { site, form, started, status: 200, answer: { type: JSON_TYPE, value } })
      return value
    } catch (error) {
      if (error instanceof NoAnswer) {
        journalCall(context, { site, form, started, status: 0 })
        if (attempts <= maxRetries) continue
        throw sendFailed(site.url, error.message)
      }
      const status = error instanceof CloudError ? error.status : 0
      // Written out now: the error carries its explanation, which may quote a whole signed request.
      journalCall(context, { site, form, started, status, answer: { type: JSON_TYPE, text: answerText(error) } })
      if (isRetryable(status) && attempts <= maxRetries) continue
      throw error
    }
  }
}

/** One attempt of a call, as the journal keeps it. */
interface CallRecord {
  site: CallSite
  /** The form body the call sends (no credentials: they sign a request, never appear in it). */
  form: () => string
  started: number
  /** 0 when no answer came. */
  status: number
  /**
   * What the call answered: a text (the error it threw, STS's XML) is cut now, so the entry holds no more
   * than the journal's limit; a value's text is written out when the journal is read.
   */
  answer?: { type: string; text: string } | { type: string; value: unknown }
}

const FORM_TYPE = 'application/x-www-form-urlencoded; charset=utf-8'
const JSON_TYPE = 'application/json'

/** What an internal entry holds besides its form, as the journals' byte budget counts it (a provider's answer is small). */
const CALL_ENTRY_OVERHEAD = 1400

/**
 * Journals one attempt as an `internal` entry under the fake cloud; the answer is written out when read.
 * The form is cut now, so that the entry holds nothing of the call's arguments (a signed request may carry
 * megabytes of headers). The URL is kept without its query (a presigned request carries its signature there).
 */
export function journalCall(context: RequestContext, call: CallRecord): void {
  const { emulator } = context
  const limit = emulator.journal.bodyLimit
  const { site, answer, form, status } = call
  const method = site.method ?? 'POST'
  const url = URL.parse(site.url)
  const path = url?.pathname ?? '/'
  const sent = boundedText(form(), limit)
  const answered = answer && 'text' in answer ? boundedText(answer.text, limit) : undefined
  const entry: JournalRecord = {
    timeMs: emulator.clock.nowMs(),
    service: 'fake-cloud',
    method,
    url: url === null ? site.url : url.origin + path,
    status,
    duration: performance.now() - call.started,
    internal: true,
    request: new SentForm(method, path, sent),
    response: answer && new CallAnswer(status, answer.type, answered, 'value' in answer ? answer.value : undefined, limit),
  }
  emulator.journal.record(entry, CALL_ENTRY_OVERHEAD + site.url.length + 2 * (sent.body.length + (answered?.body.length ?? 0)))
}

/**
 * An internal entry's request until the journal is read. Objects, not closures over the same values: the
 * journal holds a thousand entries, and each object one keeps costs the garbage collector (an ec2 login's
 * DescribeInstances entry cost about 5% of the login in process as closures).
 */
class SentForm implements Unread<JournalRequest> {
  readonly #method: string
  readonly #path: string
  readonly #sent: BoundedText

  constructor(method: string, path: string, sent: BoundedText) {
    this.#method = method
    this.#path = path
    this.#sent = sent
  }

  read(): JournalRequest {
    return { method: this.#method, path: this.#path, headers: { 'content-type': FORM_TYPE }, ...this.#sent }
  }
}

/** An internal entry's answer until the journal is read: its text cut when recorded, or the value it is written from. */
class CallAnswer implements Unread<JournalResponse> {
  readonly #status: number
  readonly #type: string
  readonly #text: BoundedText | undefined
  readonly #value: unknown
  readonly #limit: number

  constructor(status: number, type: string, text: BoundedText | undefined, value: unknown, limit: number) {
    this.#status = status
    this.#type = type
    this.#text = text
    this.#value = value
    this.#limit = limit
  }

  read(): JournalResponse {
    return { status: this.#status, headers: { 'content-type': this.#type }, ...(this.#text ?? boundedText(answerText(this.#value), this.#limit)) }
  }
}

type BoundedText = ReturnType<typeof boundedText>

/** A call's value or error as JSON, its secrets (a session's or a new key's) redacted. */
function answerText(answer: unknown): string {
  if (answer instanceof Error) {
    const { code } = answer as { code?: string }
    return JSON.stringify({ ...(code !== undefined && { code }), message: answer.message })
  }
  return JSON.stringify(answer ?? null, (key, value) => (SECRETS.has(key) ? REDACTED : value))
}

const SECRETS = new Set(['secretAccessKey', 'sessionToken'])
