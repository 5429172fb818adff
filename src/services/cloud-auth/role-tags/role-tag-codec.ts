import { createHmac, timingSafeEqual } from 'node:crypto'
import type { RoleEntry } from '../glossary.ts'
import { goQuote } from '../../../core/go/go-format.ts'
import { type GoDurationError, parseGoDurationNs } from '../../../core/go/go-duration.ts'
import { parseGoBool, type StrconvError } from '../../../core/go/go-strconv.ts'
import type { AuthState } from '../state.ts'
import { errorKind } from '../../../core/doppel-error.ts'

/** A role tag that does not parse or verify; the message is the real service's (docs/reference/cloud-auth.md §3.8). */
export class RoleTagError extends errorKind('RoleTagError', 'DOPPEL_INVALID_ROLE_TAG') {}

export const ROLE_TAG_VERSION = 'v1'

export interface ParsedRoleTag {
  version: string
  nonce: string
  /** As written on the tag (lower-cased when the service made it). */
  role: string
  /** `[]` when the tag has no `p=` item. */
  policies: string[]
  instance_id: string
  /** Seconds; 0 when the tag has no `t=` item. */
  max_ttl: number
  disallow_reauthentication: boolean
  allow_instance_migration: boolean
  hmac: string
}

export type RoleTagContent = Omit<ParsedRoleTag, 'hmac'>

/** The signed part of a tag, its items always in the same order: `v1:<nonce>:r=..:d=..:m=..[:p=..][:i=..][:t=..]`. */
export function roleTagPlaintext(tag: RoleTagContent): string {
  if (tag.version === '') throw new RoleTagError('missing version')
  if (tag.nonce === '') throw new RoleTagError('missing nonce')
  if (tag.role === '') throw new RoleTagError('missing role')
  let value = `${tag.version}:${tag.nonce}:r=${tag.role}:d=${tag.disallow_reauthentication}:m=${tag.allow_instance_migration}`
  if (tag.policies.length > 0) value += `:p=${tag.policies.join(',')}`
  if (tag.instance_id !== '') value += `:i=${tag.instance_id}`
  if (tag.max_ttl > 0) value += `:t=${tag.max_ttl}`
  return value
}

/** Standard base64 of HMAC-SHA256 keyed with the role's `hmac_key` text. */
function roleTagHmac(hmacKey: string, plaintext: string): string {
  return createHmac('sha256', hmacKey).update(plaintext).digest('base64')
}

/** The full tag value: plaintext, `:`, HMAC. */
export function signRoleTag(tag: RoleTagContent, hmacKey: string): string {
  const plaintext = roleTagPlaintext(tag)
  return `${plaintext}:${roleTagHmac(hmacKey, plaintext)}`
}

/** Splits a tag into its items, in the real service's order of checks. Does not verify the HMAC. */
export function parseRoleTag(value: string): ParsedRoleTag {
  const items = value.split(':')
  if (items.length < 4) throw new RoleTagError('invalid tag')
  const tag: ParsedRoleTag = {
    version: items[0]!,
    nonce: items[1]!,
    role: '',
    policies: [],
    instance_id: '',
    max_ttl: 0,
    disallow_reauthentication: false,
    allow_instance_migration: false,
    hmac: items[items.length - 1]!,
  }
  if (tag.version !== ROLE_TAG_VERSION) throw new RoleTagError('invalid role tag version')
  for (const item of items.slice(2, -1)) {
    const rest = item.slice(2)
    if (item.startsWith('i=')) tag.instance_id = rest
    else if (item.startsWith('r=')) tag.role = rest
    else if (item.startsWith('p=')) tag.policies = rest.split(',')
    else if (item.startsWith('d=')) tag.disallow_reauthentication = goBool(rest)
    else if (item.startsWith('m=')) tag.allow_instance_migration = goBool(rest)
    else if (item.startsWith('t=')) tag.max_ttl = tagSeconds(rest)
    else throw new RoleTagError(`unrecognized item ${goQuote(item)} in tag`)
  }
  return tag
}

function goBool(text: string): boolean {
  try {
    return parseGoBool(text)
  } catch (error) {
    throw new RoleTagError((error as StrconvError).message)
  }
}

/** `t=` is read as `<value>s` through the duration parser, as the real service does. */
function tagSeconds(text: string): number {
  try {
    return Number(parseGoDurationNs(`${text}s`) / 1_000_000_000n)
  } catch (error) {
    throw new RoleTagError((error as GoDurationError).message)
  }
}

/**
 * Parses a tag, finds its role (case-insensitively) and checks the HMAC in constant time. The tag is
 * rebuilt from the parsed items, so a tag with reordered items fails as it does in the real service.
 */
export function verifyRoleTag(state: AuthState, value: string): { tag: ParsedRoleTag; role: RoleEntry } {
  const tag = parseRoleTag(value)
  if (tag.role === '') throw new RoleTagError('missing role name')
  const role = state.roles.get(tag.role.toLowerCase())
  if (!role) throw new RoleTagError(`entry not found for ${goQuote(tag.role)}`)
  const expected = Buffer.from(roleTagHmac(role.hmac_key, roleTagPlaintext(tag)))
  const given = Buffer.from(tag.hmac)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new RoleTagError('role tag signature verification failed')
  }
  return { tag, role }
}
