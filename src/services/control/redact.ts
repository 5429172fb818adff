/**
 * Redaction of secret-bearing values, one rule set for every place doppel shows what it saw: the stored
 * state the control API shows a caller without a management token (`/_doppel/state`), and for every reader
 * the journal's exchanges, URLs and explanations (so `doppel.explain`, the dashboard and
 * `/_doppel/journal`), and the access log's request targets. Data-driven: the names and value patterns
 * below are the whole rule; the readers of bodies only find where they stand.
 */
import { checkJsonDepth, SERVICE_NESTING_LIMIT } from '../../core/bounded-parse.ts'
import type { Explanation } from '../../core/explanation.ts'
import { setOwnField } from '../../core/own-field.ts'
import { PROFILES } from '../../core/profile.ts'
import { CONTROL_PREFIX } from './urls.ts'

import { REDACTED } from '../../core/journal.ts'

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
  // the ec2 login's signed identity document: it logs in again whenever the instance is off the access list
  'pkcs7',
  'signature',
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

/** Paths whose whole answer body is a secret (the metadata token, a signed identity document) or a store of them (state, snapshot). */
const SECRET_ANSWER_PATHS = [/\/latest\/api\/token$/, /\/latest\/dynamic\/instance-identity\/(pkcs7|signature|rsa2048)$/, new RegExp(`^${CONTROL_PREFIX}(state|snapshot)$`)]

/** Collections keyed by a secret (the key is replaced too), with fields secret only there. */
const SECRET_KEYED_COLLECTIONS: Record<string, string[]> = {
  tokens: ['id', 'parent'],
  'registry.tokens': [],
}

/**
 * Fields secret only in the bodies of some paths, at any depth: a token's id where the token store takes
 * one of the caller's choosing (`create`'s `id`) and where it shows one (`lookup`'s `data.id`), whatever
 * its form.
 */
const SECRET_FIELDS_BY_PATH: [RegExp, string[]][] = [[/\/auth\/token\/(create|lookup)/, ['id']]]

/** Query parameters carrying a credential (SigV4 presigned requests). */
const SECRET_QUERY_PARAMETERS = new Set(['x-amz-signature', 'x-amz-security-token'])

/**
 * The iam login's fields that carry the signed request (docs/reference/cloud-auth.md §3.12): its headers
 * (an object of strings or lists, an array of `Key:Value`, base64 of JSON, or raw JSON text) and its URL
 * (base64), whose secrets are redacted inside whichever encoding they came in.
 */
const SIGNED_HEADERS_FIELD = 'iam_request_headers'
const SIGNED_URL_FIELD = 'iam_request_url'

/** How many characters of a signature stay visible. */
const SIGNATURE_SHOWN = 8
/** A signature already shortened (`1a2b3c4d…`): shown as it is. */
const SHORTENED = /^[0-9a-fA-F]{8}…/

/**
 * Secrets recognised by their value wherever they stand (inside a string, a list item, a canonical
 * request, a cut body): the tokens the auth method issues (`hvs.`, `hvb.`), archivist capabilities, a
 * SigV4 signature (shortened), and a credential header written as `Name:value` or `Name=value`.
 */
const VALUE_PATTERNS: [RegExp, (match: string, ...groups: string[]) => string][] = [
  [/\bhv[sb]\.[A-Za-z0-9_-]+/g, () => REDACTED],
  [/\/_archivist\/[^"\s<&\\]+/g, () => `/_archivist/${REDACTED}`],
  [/\b((?:X-Amz-)?Signature=)([0-9a-fA-F]{9,})/gi, (_, key: string, hex: string) => (key.toLowerCase() === 'signature=' ? `${key}${hex.slice(0, SIGNATURE_SHOWN)}…` : `${key}${REDACTED}`)],
  [/\b(x-amz-security-token|x-aws-ec2-metadata-token|x-service-token|x-vault-token|cookie)((?:\\?["'])?[ \t]*[:=][ \t]*(?:\\?["'])?)(?!<redacted>)([^"'\\\s,&;}\]]+)/gi, (_, name: string, separator: string) => `${name}${separator}${REDACTED}`],
  [/\b(authorization(?:\\?["'])?[ \t]*[:=][ \t]*(?:\\?["'])?)(?!AWS4-HMAC-SHA256 )([A-Za-z0-9._~+/=-]+)(?: ([^"'\\\s,&;}\]]+))?/gi, (_, head: string, scheme: string, credential?: string) =>
    credential === undefined ? `${head}${REDACTED}` : `${head}${scheme} ${REDACTED}`],
]

/** What every value pattern starts with: a text without any of these holds none (one test, not five replacements). */
const MAY_MATCH = /hv[sb]\.|_archivist\/|signature=|x-amz-security-token|x-aws-ec2-metadata-token|x-service-token|x-vault-token|cookie|authorization/i

/** Every value pattern applied to a text. */
function redactPatterns(text: string): string {
  if (!MAY_MATCH.test(text)) return text
  let out = text
  for (const [pattern, replace] of VALUE_PATTERNS) out = out.replace(pattern, replace as (match: string, ...groups: string[]) => string)
  return out
}

/**
 * A JSON value with every secret replaced, at any depth: a secret field's value (a string, or each string
 * of a list: a header given as a list), the signed request's headers and URL in each encoding the login
 * accepts, and, with `strings`, every other string by the value patterns. The same value when nothing
 * was replaced.
 */
function redactValue(value: unknown, extraFields: readonly string[] = [], strings: (text: string) => string = (text) => text, deepFields: readonly string[] = []): unknown {
  if (typeof value === 'string') return strings(value)
  if (value === null || typeof value !== 'object') return value
  // Copied only from the first replaced item on: a large state is mostly records without secrets, and
  // copying each of them would be garbage that the requests served meanwhile pay for.
  if (Array.isArray(value)) {
    let out: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i]
      const kept = redactValue(item, deepFields, strings, deepFields)
      if (out) out.push(kept)
      else if (kept !== item) (out = value.slice(0, i)).push(kept)
    }
    return out ?? value
  }
  let out: Record<string, unknown> | undefined
  for (const name in value) {
    if (!Object.hasOwn(value, name)) continue
    const field = (value as Record<string, unknown>)[name]
    const lower = name.toLowerCase()
    let kept: unknown
    if (lower === SIGNED_HEADERS_FIELD) kept = redactSignedHeaders(field)
    else if (lower === SIGNED_URL_FIELD && typeof field === 'string') kept = redactEncodedUrl(field)
    else if (field !== null && field !== '' && (SECRET_FIELDS.has(lower) || extraFields.includes(lower))) kept = redactSecret(lower, field)
    else if (lower === 'url' && typeof field === 'string') kept = redactUrl(field)
    else kept = redactValue(field, deepFields, strings, deepFields)
    if (out) setOwnField(out, name, kept)
    else if (kept !== field) {
      out = {}
      for (const before in value) {
        if (before === name) break
        if (Object.hasOwn(value, before)) setOwnField(out, before, (value as Record<string, unknown>)[before])
      }
      setOwnField(out, name, kept)
    }
  }
  return out ?? value
}


/** A secret field's value: a signature shortened, each string of a list on its own (a header sent as a list), anything else whole. */
function redactSecret(name: string, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => redactSecret(name, item))
  return typeof value === 'string' && SIGNATURE_HEADERS.has(name) ? redactHeaderValue(name, value) : REDACTED
}

/** A URL with credential query parameters and capability path segments replaced. */
export function redactUrl(text: string): string {
  if (!carriesSecret(text)) return text
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return redactPatterns(text)
  }
  let changed = false
  if (/\/_archivist\/./.test(url.pathname)) {
    url.pathname = url.pathname.replace(/\/_archivist\/.+/, `/_archivist/${REDACTED}`)
    changed = true
  }
  for (const name of [...url.searchParams.keys()]) {
    if (SECRET_QUERY_PARAMETERS.has(name.toLowerCase())) {
      url.searchParams.set(name, REDACTED)
      changed = true
    }
  }
  // Written back only when something was replaced: URL's own spelling of the rest may differ from what was sent.
  return changed ? url.toString() : text
}

/** A collection's records (`Store.entries`) with every secret replaced, each when it is reached; records keyed by a secret get `<redacted N>` keys. */
export function* redactRecords(collection: string, records: Iterable<[string, unknown]>): Generator<[string, unknown]> {
  const keyed = SECRET_KEYED_COLLECTIONS[collection]
  let n = 0
  for (const [key, record] of records) yield [keyed ? `${REDACTED.slice(0, -1)} ${++n}>` : key, redactValue(record, keyed)]
}

/** Journal entries (or any JSON value) with secret fields, headers, URL parts and token values replaced. */
export function redactEntries<T>(entries: T[]): T[] {
  return entries.map((entry) => redactValue(entry, [], redactPatterns) as T)
}

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

/** Whether a URL or path may carry a secret: a query (whose names may be percent-encoded), or an archivist capability. */
function carriesSecret(text: string): boolean {
  return text.includes('?') || text.includes('/_archivist/')
}

/** Path and query with credential query parameters and capability segments replaced. */
export function redactPath(pathAndQuery: string): string {
  if (!carriesSecret(pathAndQuery)) return pathAndQuery
  // A request target in absolute form (`http://host/…`) or otherwise unlike a path is read as a URL, or else by the value patterns.
  const redacted = redactUrl(pathAndQuery.startsWith('/') ? `http://journal${pathAndQuery}` : pathAndQuery)
  if (!pathAndQuery.startsWith('/')) return redacted
  try {
    const url = new URL(redacted)
    return url.pathname + url.search
  } catch {
    return redactPatterns(pathAndQuery)
  }
}

/**
 * A body's text with every secret replaced. A whole JSON or form-encoded body is read as what it is, so a
 * secret is found under any spelling of its name (escaped keys, percent-encoding) and inside the signed
 * request's headers in each encoding; it is written back only when something was replaced. Any other
 * text (YAML, XML, a body cut short, a canonical request) is read line by line: JSON members, XML
 * elements, form fields and YAML keys (block, flow, list item, quoted, with the lines of a block or
 * multi-line value) named in the secret list. The value patterns apply to every text.
 */
export function redactBodyText(text: string, path: string): string {
  if (text === '') return text
  if (SECRET_ANSWER_PATHS.some((pattern) => pattern.test(path))) return REDACTED
  const pathFields = SECRET_FIELDS_BY_PATH.find(([pattern]) => pattern.test(path))?.[1] ?? []
  const whole = redactJsonText(text, pathFields) ?? redactFormText(text, pathFields)
  if (whole !== undefined) return whole
  // A body of such a path cut short is not read for its fields: shown as a secret whole.
  return pathFields.length > 0 ? REDACTED : redactPatterns(redactLines(text))
}

/** A whole JSON text redacted (numbers kept as written); undefined when it is not JSON. */
function redactJsonText(text: string, pathFields: readonly string[]): string | undefined {
  const first = /\S/.exec(text)?.[0]
  if (first !== '{' && first !== '[') return undefined
  const parsed = parsedJson(text)
  if (parsed === undefined) return undefined
  if (redactValue(parsed.value, pathFields, redactPatterns, pathFields) === parsed.value) return text
  // Written back: parsed again keeping each number as it was sent (most bodies need no writing, and skip this slower parse).
  return JSON.stringify(redactValue(JSON.parse(text, keepNumberText as (key: string, value: unknown) => unknown), pathFields, redactPatterns, pathFields))
}

/** A JSON text parsed within the services' nesting bound; undefined when it is not JSON or nests deeper. */
function parsedJson(text: string): { value: unknown } | undefined {
  try {
    checkJsonDepth(text, SERVICE_NESTING_LIMIT)
    return { value: JSON.parse(text) }
  } catch {
    return undefined
  }
}

type Reviver = (this: unknown, key: string, value: unknown, context: { source?: string }) => unknown

// A number is written back as it was sent (`1.0`, digits past double precision).
const keepNumberText: Reviver = (_key, value, context) =>
  typeof value === 'number' && context.source !== undefined ? (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON(context.source) : value

/** A whole form-encoded text redacted pair by pair; undefined when it is not one. */
function redactFormText(text: string, pathFields: readonly string[]): string | undefined {
  if (!/^[^=&\s{}[\]<>"]+=[^\s]*$/.test(text)) return undefined
  let changed = false
  const pairs = text.split('&').map((pair) => {
    const at = pair.indexOf('=')
    if (at === -1) return pair
    const name = formDecode(pair.slice(0, at)).toLowerCase()
    const value = formDecode(pair.slice(at + 1))
    let kept: string
    if (name === SIGNED_HEADERS_FIELD) kept = redactSignedHeaders(value) as string
    else if (name === SIGNED_URL_FIELD) kept = redactEncodedUrl(value)
    else if (value !== '' && (SECRET_FIELDS.has(name) || SECRET_QUERY_PARAMETERS.has(name) || pathFields.includes(name))) kept = REDACTED
    else kept = redactPatterns(value)
    if (kept === value) return pair
    changed = true
    return `${pair.slice(0, at)}=${encodeURIComponent(kept)}`
  })
  return changed ? pairs.join('&') : text
}

/** A form value decoded (`+` a space); as given when its escapes are not UTF-8. */
function formDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '))
  } catch {
    return text
  }
}

/**
 * `iam_request_headers` with each header's value redacted, in the encoding it came in: an object (string
 * or list values), an array of `Key:Value`, or text (base64 of JSON, or raw JSON). Text that is none of
 * these is replaced whole: what the login could not read, the journal need not show.
 */
function redactSignedHeaders(headers: unknown): unknown {
  if (Array.isArray(headers)) {
    return headers.map((pair) => {
      if (typeof pair !== 'string') return pair
      const at = pair.indexOf(':')
      return at === -1 ? redactPatterns(pair) : `${pair.slice(0, at)}:${redactHeaderValue(pair.slice(0, at).trim(), pair.slice(at + 1))}`
    })
  }
  if (headers !== null && typeof headers === 'object') {
    const out: Record<string, unknown> = {}
    for (const [name, value] of Object.entries(headers)) {
      const redact = (item: unknown) => (typeof item === 'string' ? redactHeaderValue(name, item) : item)
      out[name] = Array.isArray(value) ? value.map(redact) : redact(value)
    }
    return out
  }
  if (typeof headers !== 'string' || headers === '') return headers
  const raw = /^\s*[{[]/.test(headers)
  const text = raw ? headers : Buffer.from(headers, 'base64').toString('utf8')
  const parsed = parsedJson(text)?.value
  if (parsed === null || typeof parsed !== 'object') return REDACTED
  const json = JSON.stringify(redactSignedHeaders(parsed))
  return raw ? json : Buffer.from(json).toString('base64')
}

/** `iam_request_url` (base64 of a URL) with its credential query parameters replaced. */
function redactEncodedUrl(encoded: string): string {
  const url = Buffer.from(encoded, 'base64').toString('utf8')
  const redacted = redactUrl(url)
  return redacted === url ? encoded : Buffer.from(redacted).toString('base64')
}

/** A quoted or plain key's name, unescaped (JSON and YAML double-quoted escapes), lower-case. */
function keyName(key: string): string {
  if (key.startsWith('"')) {
    try {
      return (JSON.parse(key.replace(/\\x([0-9a-fA-F]{2})/g, '\\u00$1').replace(/\\([^"\\/bfnrtu])/g, '$1')) as string).toLowerCase()
    } catch {
      return key.slice(1, -1).toLowerCase()
    }
  }
  if (key.startsWith("'")) return key.slice(1, -1).replaceAll("''", "'").toLowerCase()
  return key.toLowerCase()
}

/** Whether a key names a secret (a field, a credential header or query parameter). */
function isSecretKey(key: string): boolean {
  const name = keyName(key)
  return SECRET_FIELDS.has(name) || SECRET_QUERY_PARAMETERS.has(name) || name === SIGNED_HEADERS_FIELD
}

// A plain key starts where no key character stands before it: a scan then tries each word once, not each of its characters.
const KEY = String.raw`("(?:[^"\\\n]|\\.){1,200}"|'(?:[^'\n]|''){1,200}'|(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]{1,64})`

/** A JSON member (or YAML flow pair) with a quoted value, closed or cut at the text's end. */
const QUOTED_MEMBER = new RegExp(String.raw`${KEY}(\s*:\s*)("(?:[^"\\]|\\.)*(?:"|$))`, 'g')
/** A JSON member (or YAML flow pair) whose value is a list: the key and the list's opening, its strings found by `listStrings`. */
const LIST_MEMBER = new RegExp(String.raw`${KEY}(\s*:\s*\[)`, 'g')
/** A YAML anchor on a scalar where a node starts (line start, after `: `, `- `, `[`, `{` or `,`): `&name value`. */
const ANCHORED_SCALAR = /((?:^|[:,[{-])[ \t]*)(&[A-Za-z0-9_-]+)([ \t]+)("(?:[^"\\\n]|\\.)*"?|'(?:[^'\n]|'')*'?|[^\s,}\]#&*][^,}\]\n#]*)/gm
/** A flow pair with a plain value: `{ name: value, … }`. */
const FLOW_PAIR = new RegExp(String.raw`([{,][ \t]*)${KEY}([ \t]*:[ \t]+)(?![ \t"'])([^,}\]\n]+)`, 'g')
/** A form field. */
const FORM_FIELD = /(^|&)([^=&\s]{1,64})=([^&\s]+)/g
/** An XML element. */
const XML_ELEMENT = /<([A-Za-z]{1,64})>([^<]+)<\/\1>/g
/** A block key at a line's start, after list-item and explicit-key indicators: its indentation and value. */
const BLOCK_KEY = new RegExp(String.raw`^([ \t]*(?:[-?][ \t]+)*)${KEY}(:)([ \t]*)(.*)$`)

/** Every secret name, in any case: a text holding none of them (and no escape that could spell one) needs no name rule. */
const ANY_SECRET_NAME = new RegExp([...SECRET_FIELDS, ...SECRET_QUERY_PARAMETERS, SIGNED_HEADERS_FIELD].map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i')

/** Text that is neither whole JSON nor a form: secrets found by their names in every form a text may hold them. */
function redactLines(text: string): string {
  // An anchored value may be a secret's under an alias further on, perhaps past where the text was cut.
  const anchored = text.replace(ANCHORED_SCALAR, (_, lead: string, anchor: string, space: string) => `${lead}${anchor}${space}${REDACTED}`)
  if (!anchored.includes('\\') && !ANY_SECRET_NAME.test(anchored)) return anchored
  const out = anchored
    .replace(QUOTED_MEMBER, (whole, key: string, colon: string, value: string) => {
      if (keyName(key) === SIGNED_HEADERS_FIELD) {
        try {
          return `${key}${colon}${JSON.stringify(redactSignedHeaders(JSON.parse(value) as string))}`
        } catch {
          // Cut inside the value: nothing of it is shown.
          return `${key}${colon}"${REDACTED}"`
        }
      }
      return isSecretKey(key) && value !== '""' ? `${key}${colon}"${REDACTED}"` : whole
    })
  const pairs = redactLists(out)
    .replace(FLOW_PAIR, (whole, open: string, key: string, colon: string) => (isSecretKey(key) ? `${open}${key}${colon}${REDACTED}` : whole))
    .replace(XML_ELEMENT, (whole, name: string) => (SECRET_FIELDS.has(name.toLowerCase()) ? `<${name}>${REDACTED}</${name}>` : whole))
    .replace(FORM_FIELD, (whole, start: string, name: string, value: string) => (isSecretKey(formDecode(name)) && !SHORTENED.test(value) ? `${start}${name}=${REDACTED}` : whole))
  return redactBlockKeys(pairs)
}

/** Each string of a list under a secret key (`"X-Amz-Security-Token": ["…"]`) replaced, up to the list's end or the text's. */
function redactLists(text: string): string {
  let out = ''
  let from = 0
  for (const match of text.matchAll(LIST_MEMBER)) {
    if (match.index < from || !isSecretKey(match[1]!)) continue
    let at = match.index + match[0].length
    out += text.slice(from, at)
    // Strings are replaced and everything else kept, until the closing bracket.
    while (at < text.length && text[at] !== ']') {
      if (text[at] !== '"') {
        out += text[at++]
        continue
      }
      let end = at + 1
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1
      out += `"${REDACTED}"`
      at = end + 1
    }
    from = Math.min(at, text.length)
  }
  return out + text.slice(from)
}

/**
 * YAML keys at a line's start (after list-item and explicit-key indicators), with the lines their value
 * goes on over: a block scalar, a value on the next line, or a quoted value not closed on its line are
 * replaced up to the next line indented no deeper than the key, or the closing quote.
 */
function redactBlockKeys(text: string): string {
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const match = BLOCK_KEY.exec(lines[i]!)
    if (!match || !isSecretKey(match[2]!)) continue
    const [, lead, key, , space, value] = match as unknown as [string, string, string, string, string, string]
    if (value.startsWith(REDACTED) || value.startsWith(`"${REDACTED}"`) || /^&[A-Za-z0-9_-]+[ \t]+<redacted>/.test(value)) continue
    const blockScalar = /^[|>]/.test(value)
    // A block scalar's header stays; the value itself is on the following lines.
    if (value !== '' && !blockScalar) lines[i] = `${lead}${key}:${space}${REDACTED}`
    // The value goes on over the following lines: a block scalar, a value on the next line, or a quote not closed on this one.
    const openQuote = /^(["'])/.exec(value)?.[1]
    const continues = value === '' || blockScalar || (openQuote !== undefined && !closesQuote(value.slice(1), openQuote))
    if (!continues) continue
    const indent = lead.length
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j]!
      if (openQuote !== undefined) {
        lines[j] = REDACTED
        if (closesQuote(line, openQuote)) break
        continue
      }
      const depth = /^[ \t]*/.exec(line)![0].length
      if (line.trim() !== '' && depth <= indent) break
      if (line.trim() !== '') lines[j] = `${line.slice(0, depth)}${REDACTED}`
    }
  }
  return lines.join('\n')
}

/** Whether a quoted scalar's rest closes on this text. */
function closesQuote(rest: string, quote: string): boolean {
  return quote === '"' ? /(^|[^\\])(\\\\)*"/.test(rest) : /'(?!')/.test(rest.replaceAll("''", ''))
}

/** An explanation with every secret its texts could hold replaced (a canonical request's signed token). */
export function redactExplanation(explanation: Explanation): Explanation {
  const text = (value: string) => redactBodyText(value, '')
  const out: Explanation = { ...explanation, seen: text(explanation.seen) }
  if (explanation.expected !== undefined) out.expected = text(explanation.expected)
  if (explanation.details) out.details = Object.fromEntries(Object.entries(explanation.details).map(([name, value]) => [name, text(value)]))
  return out
}
