/**
 * Bytes read as Go reads a string's runes (`for range`, `utf8.DecodeRune`, and the JSON encoder writing a
 * string): each valid UTF-8 sequence its character, each byte that starts none U+FFFD on its own. (A
 * `TextDecoder` replaces a cut-off sequence with one U+FFFD, where Go writes one a byte.)
 */
export function goUtf8(bytes: ArrayLike<number>): string {
  let out = ''
  for (let at = 0; at < bytes.length; ) {
    const [code, size] = decodeRune(bytes, at)
    out += String.fromCodePoint(code)
    at += size
  }
  return out
}

const REPLACEMENT = 0xfffd

/** Go's `utf8.DecodeRune` at `at`: the rune and its length, or U+FFFD and 1. */
function decodeRune(bytes: ArrayLike<number>, at: number): [number, number] {
  const first = bytes[at]!
  if (first < 0x80) return [first, 1]
  const size = first >= 0xc2 && first <= 0xdf ? 2 : first >= 0xe0 && first <= 0xef ? 3 : first >= 0xf0 && first <= 0xf4 ? 4 : 0
  if (size === 0 || at + size > bytes.length) return [REPLACEMENT, 1]
  // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
  const low = first === 0xe0 ? 0xa0 : first === 0xf0 ? 0x90 : 0x80
  const high = first === 0xed ? 0x9f : first === 0xf4 ? 0x8f : 0xbf
  const second = bytes[at + 1]!
  if (second < low || second > high) return [REPLACEMENT, 1]
  let code = first & (0xff >> (size + 1))
  for (let i = 1; i < size; i++) {
    const next = bytes[at + i]!
    if (i > 1 && (next & 0xc0) !== 0x80) return [REPLACEMENT, 1]
    code = (code << 6) | (next & 0x3f)
  }
  return [code, size]
}
