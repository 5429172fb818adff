/**
 * Redaction of secret-bearing values in what the control API shows (`/_doppel/state`, `/_doppel/journal`)
 * to a caller without a management token. Data-driven: the lists below are the whole rule.
 */
import { PROFILES } from '../../core/profile.ts'

export const REDACTED = '<redacted>'

/** Record fields and header names (compared lower-case) whose values are secrets wherever they appear. */
const SECRET_FIELDS = new Set([
  // fake cloud access keys, and the auth service's config/client
  'secret_access_key',
  'secret_key',
  'session_token',
  // roles: the key role tags are signed with
  'hmac_key',
  // tokens of the auth service
  'client_token',
  'accessor',
  // registry tokens
  'token',
  // archivist objects: whoever knows one may upload or download without a token
  'uploadobject',
  'downloadobject',
  // request headers that carry credentials: every profile's token headers, whichever profile is active
  'authorization',
  ...PROFILES.flatMap((profile) => profile.tokenHeaders),
  'x-amz-security-token',
  'cookie',
])

/** Collections keyed by a secret (the key is replaced too), with fields secret only there. */
const SECRET_KEYED_COLLECTIONS: Record<string, string[]> = {
  tokens: ['id'],
  'registry.tokens': [],
}

/** Query parameters carrying a credential (SigV4 presigned requests). */
const SECRET_QUERY_PARAMETERS = ['x-amz-signature', 'x-amz-security-token']

/** Paths whose remainder is a capability (archivist upload and download objects). */
const SECRET_PATH_PREFIXES = ['/_archivist/']

function redactValue(value: unknown, extraFields: readonly string[] = []): unknown {
  if (Array.isArray(value)) return value.map((item) => redactValue(item))
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [name, field] of Object.entries(value)) {
    const lower = name.toLowerCase()
    if (field !== null && field !== '' && (SECRET_FIELDS.has(lower) || extraFields.includes(lower))) out[name] = REDACTED
    else if (lower === 'url' && typeof field === 'string') out[name] = redactUrl(field)
    else out[name] = redactValue(field)
  }
  return out
}

/** A URL with credential query parameters and capability path segments replaced. */
export function redactUrl(text: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return text
  }
  for (const prefix of SECRET_PATH_PREFIXES) {
    if (url.pathname.startsWith(prefix) && url.pathname.length > prefix.length) url.pathname = prefix + REDACTED
  }
  for (const name of [...url.searchParams.keys()]) {
    if (SECRET_QUERY_PARAMETERS.includes(name.toLowerCase())) url.searchParams.set(name, REDACTED)
  }
  return url.toString()
}

/** A store snapshot with every secret replaced; records keyed by a secret get `<redacted N>` keys. */
export function redactSnapshot(snapshot: Record<string, Record<string, unknown>>): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {}
  for (const [name, records] of Object.entries(snapshot)) {
    const keyed = SECRET_KEYED_COLLECTIONS[name]
    const collection: Record<string, unknown> = {}
    let n = 0
    for (const [key, record] of Object.entries(records)) {
      collection[keyed ? `${REDACTED.slice(0, -1)} ${++n}>` : key] = redactValue(record, keyed)
    }
    out[name] = collection
  }
  return out
}

/** Journal entries (or any JSON value) with secret fields, headers and URL parts replaced. */
export function redactEntries<T>(entries: T[]): T[] {
  return entries.map((entry) => redactValue(entry) as T)
}
