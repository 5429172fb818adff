import { timingSafeEqual } from 'node:crypto'
import type { AccessListEntry, RoleEntry } from '../../glossary.ts'
import { LoginError } from '../login-error.ts'
import { LOGIN_MESSAGES } from '../login-messages.ts'
import { parseRfc3339, TimeParseError } from '../../../../core/go/rfc3339.ts'
import { mountPath } from '../../urls.ts'

/** The nonce a client sends as `nonce: ""`: reauthentication is then disabled for the instance. */
const REAUTHENTICATION_DISABLED_NONCE = 'reauthentication-disabled-nonce'

const NONCE_LIMIT = 128

export interface NonceOutcome {
  clientNonce: string
  /** Whether the request carried `nonce` at all (a present `""` counts). */
  supplied: boolean
  disallowReauthentication: boolean
}

/**
 * The client-nonce rules of docs/reference/cloud-auth.md §4 F: a present `nonce` is used (empty disables reauthentication);
 * against an existing access-list entry the nonce must match, unless the role allows migration and the
 * document's pendingTime is strictly newer; an older pendingTime is refused. An absent nonce gets a
 * fresh UUID (from the emulator's random source) once the checks pass.
 */
export function evaluateNonce(
  nonce: string | undefined,
  stored: AccessListEntry | undefined,
  role: RoleEntry,
  pendingTime: string,
  newNonce: () => string,
): NonceOutcome {
  let disallowReauthentication = role.disallow_reauthentication
  let clientNonce = ''
  const supplied = nonce !== undefined
  if (supplied) {
    clientNonce = nonce
    if (clientNonce === '') {
      clientNonce = REAUTHENTICATION_DISABLED_NONCE
      disallowReauthentication = true
    }
  }
  if (stored) {
    checkAgainstStored(clientNonce, pendingTime, stored, role)
    disallowReauthentication ||= stored.disallow_reauthentication
  }
  if (!supplied) clientNonce = newNonce()
  return { clientNonce, supplied, disallowReauthentication }
}

function checkAgainstStored(clientNonce: string, pendingTime: string, stored: AccessListEntry, role: RoleEntry): void {
  const instance = `access-list entry of ${stored.instance_id}`
  if (!stored.disallow_reauthentication && stored.client_nonce === '') {
    throw new LoginError(LOGIN_MESSAGES.storedNonceMissing).explain({ rule: 'client nonce', seen: `the ${instance} holds no nonce` })
  }
  if (stored.disallow_reauthentication || constantTimeEquals(REAUTHENTICATION_DISABLED_NONCE, clientNonce)) {
    throw new LoginError(LOGIN_MESSAGES.reauthDisabled).explain({
      rule: 'disallow_reauthentication',
      seen: stored.disallow_reauthentication ? `the ${instance} disallows reauthentication` : 'nonce "" (reauthentication disabled by the client)',
      hint: `delete the access-list entry (DELETE ${mountPath('<mount>', `identity-accesslist/${stored.instance_id}`)}) to log in again`,
    })
  }
  const given = parseTime(pendingTime)
  const previous = parseTime(stored.pending_time)
  if (!constantTimeEquals(clientNonce, stored.client_nonce)) {
    // The nonces are secrets: their lengths tell two apart without showing either.
    const seen = `a nonce of ${clientNonce.length} characters that is not the one stored (${stored.client_nonce.length} characters)`
    if (!role.allow_instance_migration) {
      throw new LoginError(LOGIN_MESSAGES.nonceMismatch).explain({
        rule: 'client nonce',
        seen,
        expected: `the nonce of the first login of ${stored.instance_id}`,
        hint: 'send the nonce the first login used (or returned in auth.metadata.nonce), or set allow_instance_migration on the role',
      })
    }
    if (!(given > previous)) {
      throw new LoginError(LOGIN_MESSAGES.nonceMismatchMigration).explain({
        rule: 'pendingTime (allow_instance_migration)',
        seen: pendingTime,
        expected: `later than ${stored.pending_time}`,
        details: { nonce: seen },
      })
    }
  }
  if (given < previous) {
    throw new LoginError(LOGIN_MESSAGES.olderMetadata).explain({ rule: 'pendingTime', seen: pendingTime, expected: `${stored.pending_time} or later` })
  }
}

function parseTime(value: string): bigint {
  try {
    return parseRfc3339(value)
  } catch (error) {
    if (error instanceof TimeParseError) throw new LoginError(error.message)
    throw error
  }
}

function constantTimeEquals(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

export interface AccessListWrite {
  instanceId: string
  roleName: string
  pendingTime: string
  nowMs: number
  /** Seconds: the longest of the mount, role and tag maxima. */
  longestMaxTtl: number
}

/**
 * The access-list entry to store after a successful login (docs/reference/cloud-auth.md §4 H). A new entry takes the role
 * as sent and the nonce; an existing entry keeps its creation time and its nonce (the real service never
 * replaces it); a disallowed reauthentication clears the stored nonce. A nonce over 128 characters is
 * refused unless reauthentication is disallowed.
 */
export function nextAccessListEntry(existing: AccessListEntry | undefined, outcome: NonceOutcome, write: AccessListWrite): AccessListEntry {
  const entry: AccessListEntry = existing
    ? { ...existing }
    : {
        instance_id: write.instanceId,
        role: write.roleName,
        client_nonce: outcome.clientNonce,
        creation_time: write.nowMs,
        last_updated_time: write.nowMs,
        expiration_time: write.nowMs,
        pending_time: write.pendingTime,
        disallow_reauthentication: false,
      }
  entry.last_updated_time = write.nowMs
  entry.expiration_time = write.nowMs + write.longestMaxTtl * 1000
  entry.pending_time = write.pendingTime
  entry.disallow_reauthentication = outcome.disallowReauthentication
  if (entry.disallow_reauthentication) entry.client_nonce = ''
  if (Buffer.byteLength(outcome.clientNonce) > NONCE_LIMIT && !entry.disallow_reauthentication) {
    throw new LoginError(LOGIN_MESSAGES.nonceTooLong)
  }
  return entry
}
