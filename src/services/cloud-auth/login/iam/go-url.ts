/** Go's `net/url` behaviour where the iam login depends on it: parsing the client URL and query strings. */

import { goQuote } from '../../../../core/go/go-format.ts'

export interface ClientUrl {
  /** `host[:port]` as the client signed it; empty for a relative URL. */
  host: string
  /** Path and query (`/` when the path is empty), as Go's `URL.RequestURI()` gives them. */
  requestUri: string
  /** The query without `?`; empty when there is none. */
  rawQuery: string
}

/** Parses like Go's `url.Parse`: lenient, but control characters and bad escapes are errors. */
export function parseClientUrl(text: string): ClientUrl | undefined {
  if (/[\x00-\x1f\x7f]/.test(text) || /%(?![0-9A-Fa-f]{2})/.test(text)) return undefined
  const withoutFragment = text.split('#')[0]!
  // Without a scheme, a colon in the first segment is an error ("missing protocol scheme" for a leading one).
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(withoutFragment) && /^[^/?]*:/.test(withoutFragment)) return undefined
  const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(withoutFragment)
  let url: URL
  try {
    url = absolute ? new URL(withoutFragment) : new URL(withoutFragment, 'relative://')
  } catch {
    return undefined
  }
  const queryIndex = withoutFragment.indexOf('?')
  const rawQuery = queryIndex >= 0 ? withoutFragment.slice(queryIndex + 1) : ''
  const path = url.pathname === '' ? '/' : url.pathname
  return {
    host: absolute ? url.host : '',
    requestUri: path + (rawQuery !== '' ? `?${rawQuery}` : ''),
    rawQuery,
  }
}

/** Go's `url.ParseQuery`: the values by key and the first error (as Go reports it), if any. */
export function parseGoQuery(query: string): { values: Map<string, string[]>; error: string | undefined } {
  const values = new Map<string, string[]>()
  let error: string | undefined
  for (const part of query.split('&')) {
    if (part === '') continue
    if (part.includes(';')) {
      error ??= 'invalid semicolon separator in query'
      continue
    }
    const equals = part.indexOf('=')
    const rawKey = equals >= 0 ? part.slice(0, equals) : part
    const rawValue = equals >= 0 ? part.slice(equals + 1) : ''
    const key = queryUnescape(rawKey)
    const value = queryUnescape(rawValue)
    if (typeof key !== 'string') {
      error ??= key.error
      continue
    }
    if (typeof value !== 'string') {
      error ??= value.error
      continue
    }
    const list = values.get(key)
    if (list) list.push(value)
    else values.set(key, [value])
  }
  return { values, error }
}

function queryUnescape(text: string): string | { error: string } {
  // Nothing to unescape and nothing a UTF-8 round trip would change (no surrogates): the text as it is.
  if (!/[%+\ud800-\udfff]/.test(text)) return text
  const bad = /%(?![0-9A-Fa-f]{2})(.{0,2})/.exec(text)
  if (bad) return { error: `invalid URL escape ${goQuote(`%${bad[1]}`)}` }
  const chunks: Buffer[] = []
  for (const piece of text.match(/%[0-9A-Fa-f]{2}|\+|[^%+]+/g) ?? []) {
    if (piece === '+') chunks.push(Buffer.from(' '))
    else if (piece.startsWith('%')) chunks.push(Buffer.from([parseInt(piece.slice(1), 16)]))
    else chunks.push(Buffer.from(piece, 'utf8'))
  }
  return Buffer.concat(chunks).toString('utf8')
}
