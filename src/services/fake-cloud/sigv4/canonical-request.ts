/**
 * The parts of a SigV4 canonical request, built from the request exactly as received (docs/reference/fake-cloud.md §5.1
 * step 6, non-S3 rules).
 */

/** RFC 3986 encoding: unreserved characters stay, everything else is `%XX` upper-case. */
export function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

/** The normalised segments of a raw path: empty segments and `.` dropped, `..` resolved. */
export function pathSegments(rawPath: string): string[] {
  const out: string[] = []
  for (const segment of rawPath.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') out.pop()
    else out.push(segment)
  }
  return out
}

/**
 * The canonical URI of normalised segments. Each raw segment is encoded again (a `%` becomes `%25`): clients
 * encode their already-encoded path once more for every service but S3.
 */
export function canonicalUri(segments: string[], trailingSlash: boolean): string {
  if (segments.length === 0) return '/'
  return '/' + segments.map(encodeRfc3986).join('/') + (trailingSlash ? '/' : '')
}

/** The canonical query: decoded, `X-Amz-Signature` dropped, re-encoded, sorted by name then value. */
export function canonicalQuery(rawQuery: string): string {
  const text = rawQuery.startsWith('?') ? rawQuery.slice(1) : rawQuery
  if (text === '') return ''
  const pairs: [string, string][] = []
  for (const part of text.split('&')) {
    if (part === '') continue
    const eq = part.indexOf('=')
    const name = decodeQueryPart(eq < 0 ? part : part.slice(0, eq))
    if (name === 'X-Amz-Signature') continue
    pairs.push([encodeRfc3986(name), encodeRfc3986(decodeQueryPart(eq < 0 ? '' : part.slice(eq + 1)))])
  }
  pairs.sort(([an, av], [bn, bv]) => (an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
  return pairs.map(([name, value]) => `${name}=${value}`).join('&')
}

/** A form or query component decoded as AWS does: `+` is a space; a broken escape is kept as written. */
export function decodeQueryPart(text: string): string {
  const spaced = text.replace(/\+/g, ' ')
  try {
    return decodeURIComponent(spaced)
  } catch {
    return spaced
  }
}

/** Where header values come from: a received `Headers`, or a signer's own table. */
export type HeaderLookup = Pick<Headers, 'get'>

/**
 * The canonical headers block for the signed header names: `name:value\n` per header, values trimmed with
 * inner whitespace runs collapsed. `host` falls back to the URL's host when the transport dropped it.
 */
export function canonicalHeaders(signedHeaders: string[], headers: HeaderLookup, fallbackHost: string): string {
  let out = ''
  for (const name of signedHeaders) {
    const value = headerValue(headers, name) ?? (name === 'host' ? fallbackHost : '')
    out += `${name}:${value.trim().replace(/\s+/g, ' ')}\n`
  }
  return out
}

/** A header's value; a name no header can have (the client listed garbage) has none. */
function headerValue(headers: HeaderLookup, name: string): string | null {
  try {
    return headers.get(name)
  } catch {
    return null
  }
}
