import { errorKind } from './doppel-error.ts'
import { compilePathPattern } from './path-pattern.ts'

/**
 * Which journaled requests to count: every field given must match (WireMock's request pattern for
 * `verify`). Omit a field to match any value.
 */
export interface JournalMatch {
  /** The HTTP method, any case (`'POST'`). */
  method?: string
  /**
   * An msw-style path pattern, as faults take: `*` matches anything, `:name` one segment; a pattern that
   * starts with a scheme matches the full URL without its query (`https://sts.amazonaws.com/*`).
   */
  path?: string
  /** The service that answered: `cloud-auth`, `registry`, `fake-cloud`, `control`, or `none`. */
  service?: string
  /** The answer's status; `0` is a dropped connection. */
  status?: number
}

/** `journal.verify` saw a different number of matching requests than expected. */
export class JournalVerifyError extends errorKind('JournalVerifyError', 'DOPPEL_VERIFY_FAILED') {}

/** What a record must have for the match to see it: the journal's own fields, not the formatted entry. */
export interface MatchableRecord {
  method: string
  url: string
  service: string
  status: number
}

/** A predicate for `match`; throws PatternTooLongError for an over-long pattern. */
export function compileJournalMatch(match: JournalMatch): (record: MatchableRecord) => boolean {
  const method = match.method?.toUpperCase()
  const pattern = match.path === undefined ? undefined : compilePathPattern(match.path)
  return (record) =>
    (method === undefined || record.method.toUpperCase() === method) &&
    (match.service === undefined || record.service === match.service) &&
    (match.status === undefined || record.status === match.status) &&
    (pattern === undefined || pattern.testUrl(new URL(record.url)))
}

/** The match as the failure message writes it: `POST /v1/auth/cloud/login (service cloud-auth, status 200)`. */
export function describeJournalMatch(match: JournalMatch): string {
  const extra = [match.service !== undefined && `service ${match.service}`, match.status !== undefined && `status ${match.status}`].filter(Boolean)
  const head = `${match.method?.toUpperCase() ?? 'any method'} ${match.path ?? 'any path'}`
  return extra.length === 0 ? head : `${head} (${extra.join(', ')})`
}
