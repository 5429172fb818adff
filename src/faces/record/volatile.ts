/**
 * Which response values change from run to run (request ids, tokens, accessors, nonces, generated ids,
 * timestamps, ETags): the recorder turns them into matchers and captures instead of literals.
 */

import { SECRET_KEYS } from './secrets.ts'

/** Keys whose non-empty string values are generated: captured, matched by type. */
const GENERATED_KEYS = /^(request_id|lease_id|client_token|accessor|nonce|entity_id|role_id|id|token|.*_accessor|.*uuid|etag|unique_id|user_id|access_key_id|secret_access_key|session_token)$/i

/** Keys holding times. */
const TIME_KEYS = /(_time|_at|-at|^expiration|^last_updated|^pending_time)$/i

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/
const TOKEN = /^hv[sbr]\.[A-Za-z0-9_-]{8,}$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The matcher of any RFC 3339 time. */
export const TIME_MATCHER = { $regex: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}' }

function isTimeKey(key: string | number | undefined): boolean {
  return typeof key === 'string' && TIME_KEYS.test(key)
}

/** A number that depends on when it was read: epoch times, and a token's remaining `ttl`. */
export function isClockNumber(key: string | number | undefined): boolean {
  return isTimeKey(key) || key === 'ttl'
}

export type Volatility = 'stable' | 'time' | 'generated'

/** How a response string at `key` varies; `id`s that spell a path (`org/name/provider/1.0.0`) are stable. */
export function volatility(key: string | number | undefined, value: string): Volatility {
  if (value === '') return 'stable'
  if (RFC3339.test(value)) return 'time'
  if (TOKEN.test(value) || UUID.test(value)) return 'generated'
  if (typeof key !== 'string') return 'stable'
  if (TIME_KEYS.test(key)) return 'time'
  // A secret in an answer is never written: captured where a later step needs it, matched by type.
  if (SECRET_KEYS.test(key)) return 'generated'
  if (GENERATED_KEYS.test(key) && !value.includes('/')) return 'generated'
  return 'stable'
}

/** Headers the transport owns, or that say nothing about the service's behaviour. */
export const TRANSPORT_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'accept-encoding',
  'user-agent',
  'accept',
  'te',
  'upgrade',
  'proxy-connection',
  // What fetch (undici) adds to every request on its own.
  'accept-language',
  'sec-fetch-mode',
])
