import { createHmac, timingSafeEqual } from 'node:crypto'
import type { CloudState } from '../cloud-state.ts'

/**
 * IMDSv2 session tokens. A token carries its expiry and an HMAC binding it to one instance, so no token is
 * stored: the HMAC key is drawn once per emulator from its random source.
 */
const MAC_BYTES = 24
/** The key IMDSv2 tokens are signed with, drawn on first use. */
export const IMDS_SECRET_BYTES = 32

/** A token for this instance, valid `ttlSeconds` on the emulator clock. */
export function issueImdsToken(state: CloudState, instanceId: string, ttlSeconds: number): string {
  const expires = Buffer.alloc(8)
  expires.writeBigUInt64BE(BigInt(state.emulator.clock.nowMs() + ttlSeconds * 1000))
  return Buffer.concat([expires, mac(state, instanceId, expires)]).toString('base64')
}

/** True when the token was issued for this instance and has not expired on the emulator clock. */
export function isValidImdsToken(state: CloudState, instanceId: string, token: string): boolean {
  const bytes = Buffer.from(token, 'base64')
  if (bytes.length !== 8 + MAC_BYTES || bytes.toString('base64') !== token) return false
  const expires = bytes.subarray(0, 8)
  if (!timingSafeEqual(bytes.subarray(8), mac(state, instanceId, expires))) return false
  return Number(expires.readBigUInt64BE()) > state.emulator.clock.nowMs()
}

function mac(state: CloudState, instanceId: string, expires: Buffer): Buffer {
  if (state.imdsSecret === undefined) {
    state.imdsSecret = state.emulator.random.bytes(IMDS_SECRET_BYTES)
    // Unseeded, the draw counts nowhere else: a restart must keep the key, or live tokens stop working.
    state.emulator.noteChange()
  }
  return createHmac('sha256', state.imdsSecret).update(instanceId).update(expires).digest().subarray(0, MAC_BYTES)
}
