/**
 * Redaction of secret-bearing values: in what the control API shows (`/_doppel/state`, `/_doppel/journal`)
 * to a caller without a management token, and in the exchanges the journal keeps (headers and bodies are
 * redacted as they are recorded, so no secret is held there at all). Data-driven: the lists below are the
 * whole rule.
 */
import type { Explanation } from '../../core/explanation.ts'
import { PROFILES } from '../../core/profile.ts'
import { CONTROL_PREFIX } from './urls.ts'

import { REDACTED } from '../../core/journal.ts'

export { REDACTED }

/** Record fields and header names (compared lower-case) whose values are secrets wherever they appear. */
const SECRET_FIELDS = new Set([
  // fake cloud access keys, and the auth service's config/client
  'secret_access_key',
  'secret_key',
  'session_token',
  // roles: the key role tags are signed with
  'hmac_key',
  // tokens of the auth service, and the ec2 login's client nonce (it proves an instance at reauthentication)
  'client_token',
  'nonce',
  'client_nonce',
  'accessor',
  // the fake cloud's answers (STS and IAM XML, the metadata service's credentials JSON)
  'secretaccesskey',
  'sessiontoken',
  // registry tokens
  'token',
  // archivist objects: whoever knows one may upload or download without a token
  'uploadobject',
  'downloadobject',
  // request headers that carry credentials: every profile's token headers, whichever profile is active
  'authorization',
  ...PROFILES.flatMap((profile) => profile.tokenHeaders),
  'x-amz-security-token',
  'x-aws-ec2-metadata-token',
  'cookie',
])

/** Headers whose value is a signature: shortened, not hidden, so that a reader can tell two apart. */
const SIGNATURE_HEADERS = new Set(['authorization'])

/** Paths whose whole answer body is a secret (the metadata token) or a store of them (state, snapshot). */
const SECRET_ANSWER_PATHS = [/\/latest\/api\/token$/, new RegExp(`^${CONTROL_PREFIX}(state|snapshot)$`)]

/** Token forms the auth method issues (`hvs.`, `hvb.`): redacted wherever they appear in a body. */
const ISSUED_TOKEN = /\bhv[sb]\.[A-Za-z0-9_-]+/g

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

/** How many characters of a signature stay visible. */
const SIGNATURE_SHOWN = 8

/**
 * A header value as the journal keeps it: a secret header's value replaced, a SigV4 `Authorization`
 * kept with its signature shortened (scope and signed headers are what a reader needs), any other
 * scheme's credentials replaced.
 */
export function redactHeaderValue(name: string, value: string): string {
  const lower = name.toLowerCase()
  if (SIGNATURE_HEADERS.has(lower)) {
    if (/^AWS4-HMAC-SHA256 /i.test(value)) return value.replace(/(Signature=)([0-9a-fA-F]+)/, (_, key: string, hex: string) => `${key}${hex.slice(0, SIGNATURE_SHOWN)}…`)
    const space = value.indexOf(' ')
    return space > 0 ? `${value.slice(0, space)} ${REDACTED}` : REDACTED
  }
  return SECRET_FIELDS.has(lower) && value !== '' ? REDACTED : value
}

/** Path and query with credential query parameters and capability segments replaced. */
export function redactPath(pathAndQuery: string): string {
  const url = new URL(redactUrl(`http://journal${pathAndQuery}`))
  return url.pathname + url.search
}

/**
 * A body's text with every secret replaced: JSON members, XML elements, `name: value` lines (YAML, a
 * canonical request's headers) and form fields named in the secret list, and issued tokens and archivist
 * capabilities wherever they appear; `iam_request_headers` (base64 JSON of the signed request's headers)
 * is decoded, redacted and encoded again. Works on a body cut short, too: nothing is parsed whole.
 */
export function redactBodyText(text: string, path: string): string {
  if (SECRET_ANSWER_PATHS.some((pattern) => pattern.test(path)) && text !== '') return REDACTED
  return text
    .replace(/"([^"\\]{1,64})"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g, (whole, name: string, colon: string, value: string) => {
      const lower = name.toLowerCase()
      if (lower === 'iam_request_headers') return `"${name}"${colon}"${redactEncodedHeaders(value)}"`
      return SECRET_FIELDS.has(lower) && value !== '' ? `"${name}"${colon}"${REDACTED}"` : whole
    })
    .replace(/<([A-Za-z]{1,64})>([^<]+)<\/\1>/g, (whole, name: string) => (SECRET_FIELDS.has(name.toLowerCase()) ? `<${name}>${REDACTED}</${name}>` : whole))
    .replace(/(^|&)([^=&\s]{1,64})=([^&\s]+)/g, (whole, start: string, name: string) => {
      const lower = name.toLowerCase()
      return SECRET_FIELDS.has(lower) || SECRET_QUERY_PARAMETERS.includes(lower) ? `${start}${name}=${REDACTED}` : whole
    })
    .replace(/^([ \t]*)([A-Za-z0-9_-]{1,64}):([ \t]*)(\S.*)$/gm, (whole, indent: string, name: string, space: string) =>
      SECRET_FIELDS.has(name.toLowerCase()) ? `${indent}${name}:${space}${REDACTED}` : whole,
    )
    .replace(ISSUED_TOKEN, REDACTED)
    .replace(/\/_archivist\/[^"\s<&]+/g, `/_archivist/${REDACTED}`)
}

/** `iam_request_headers`' base64 JSON with its header values redacted; as given when it is not that. */
function redactEncodedHeaders(encoded: string): string {
  let headers: unknown
  try {
    headers = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'))
  } catch {
    return encoded
  }
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) return encoded
  const out: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(headers)) {
    const redact = (item: unknown) => (typeof item === 'string' ? redactHeaderValue(name, item) : item)
    out[name] = Array.isArray(value) ? value.map(redact) : redact(value)
  }
  return Buffer.from(JSON.stringify(out)).toString('base64')
}

/** An explanation with every secret its texts could hold replaced (a canonical request's signed token). */
export function redactExplanation(explanation: Explanation): Explanation {
  const text = (value: string) => redactBodyText(value, '')
  const out: Explanation = { ...explanation, seen: text(explanation.seen) }
  if (explanation.expected !== undefined) out.expected = text(explanation.expected)
  if (explanation.details) out.details = Object.fromEntries(Object.entries(explanation.details).map(([name, value]) => [name, text(value)]))
  return out
}
