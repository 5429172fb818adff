/**
 * Go's `unicode.IsSpace` trimming (`strings.TrimSpace`, `strings.TrimLeftFunc(s, unicode.IsSpace)`) on a
 * header value as received, one character a byte: ASCII white space and the UTF-8 encodings of Unicode's
 * other white space (U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000). A lone
 * byte 0xA0 is no UTF-8, so Go keeps it, and so do these.
 */
const GO_SPACE = String.raw`(?:[\t\n\v\f\r ]|\xc2[\x85\xa0]|\xe1\x9a\x80|\xe2\x80[\x80-\x8a\xa8\xa9\xaf]|\xe2\x81\x9f|\xe3\x80\x80)`
const AROUND = new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, 'g')
const LEADING = new RegExp(`^${GO_SPACE}+`)

export function goTrimSpace(text: string): string {
  return text.replace(AROUND, '')
}

export function goTrimLeftSpace(text: string): string {
  return text.replace(LEADING, '')
}

/** Go's `unicode.IsSpace` on decoded text, a character a code point (the functions above read bytes). */
const GO_SPACE_TEXT = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]'
const TEXT_AROUND = new RegExp(`^${GO_SPACE_TEXT}+|${GO_SPACE_TEXT}+$`, 'g')
const TEXT_SPACES = new RegExp(`${GO_SPACE_TEXT}+`)

/** `strings.TrimSpace` of decoded text. */
export function goTrimSpaceText(text: string): string {
  return text.replace(TEXT_AROUND, '')
}

/** `strings.Fields`: the text split around runs of white space, none empty. */
export function goFields(text: string): string[] {
  const trimmed = goTrimSpaceText(text)
  return trimmed === '' ? [] : trimmed.split(TEXT_SPACES)
}
