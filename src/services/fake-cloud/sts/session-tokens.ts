import { timingSafeEqual } from 'node:crypto'
import type { AccessKeyRecord, CloudState } from '../cloud-state.ts'
import { derivedBytes, SESSION_TOKEN_PREFIX } from '../ids.ts'

/**
 * Session tokens that carry their own expiry, as STS's do: the first bytes after the prefix hold the expiry
 * time and a check value over it and the access key id. So an expired session can be tidied away (nothing
 * grows without bound) and a request still presenting its token is told `ExpiredToken`, as AWS tells it for
 * as long as the token is presented, rather than `InvalidClientTokenId`.
 *
 * @note The check value is a digest, not a keyed MAC: it tells doppel's own tokens from garbage. Tokens of a
 * test double are no secret (a seeded emulator's are predictable anyway).
 */
const STAMP_BYTES = 8 + 16
/** Base64 characters holding the stamp (24 bytes: 32 characters, no padding). */
const STAMP_CHARS = (STAMP_BYTES / 3) * 4

/** The stamp that begins a session token's bytes: expiry (epoch ms, big-endian) and the check value. */
export function sessionStamp(accessKeyId: string, expiresMs: number): Buffer {
  const stamp = Buffer.alloc(STAMP_BYTES)
  stamp.writeBigUInt64BE(BigInt(expiresMs))
  check(accessKeyId, expiresMs).copy(stamp, 8)
  return stamp
}

/** Whether `token` is one doppel issued for `accessKeyId`, expired at `nowMs` (the session may be gone). */
export function isExpiredSessionToken(accessKeyId: string, token: string | undefined, nowMs: number): boolean {
  if (token === undefined || !token.startsWith(SESSION_TOKEN_PREFIX)) return false
  const bytes = Buffer.from(token.slice(SESSION_TOKEN_PREFIX.length, SESSION_TOKEN_PREFIX.length + STAMP_CHARS), 'base64')
  if (bytes.length !== STAMP_BYTES) return false
  const expiresMs = Number(bytes.readBigUInt64BE())
  return timingSafeEqual(bytes.subarray(8), check(accessKeyId, expiresMs)) && expiresMs <= nowMs
}

/** Remembers a session's expiry, for the tidy. */
export function trackSession(state: CloudState, key: AccessKeyRecord): void {
  if (key.kind === 'session' && key.expires_ms !== null) state.sessionExpiries.push(key.access_key_id, key.expires_ms)
}

/** Removes every session expired by `nowMs` (entries of keys deleted since are skipped). */
export function sweepExpiredSessions(state: CloudState, nowMs: number): void {
  state.sessionExpiries.drain(nowMs, (id, expiresMs) => {
    if (state.keys.get(id)?.expires_ms === expiresMs) state.keys.delete(id)
  })
}

function check(accessKeyId: string, expiresMs: number): Buffer {
  return derivedBytes('doppel session token', accessKeyId, String(expiresMs)).subarray(0, 16)
}
