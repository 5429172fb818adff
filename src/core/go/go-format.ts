/**
 * Go's text forms, because the real service's messages embed values printed by `fmt`: `%q`, `%+q`, `%v`.
 * Clients match on these messages, so the quoting has to be Go's, not JSON's.
 */

const SIMPLE_ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '\\': '\\\\',
  '"': '\\"',
}

/** Go's `strconv.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const NON_PRINTABLE = /[\p{C}\p{Z}]/u

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0')
}

function quoteWith(value: string, asciiOnly: boolean): string {
  let out = '"'
  for (const char of value) {
    const code = char.codePointAt(0)!
    const simple = SIMPLE_ESCAPES[char]
    if (simple) out += simple
    else if (code < 0x20 || code === 0x7f) out += `\\x${hex(code, 2)}`
    else if (code >= 0xd800 && code <= 0xdfff) out += '\\ufffd'
    else if (char !== ' ' && (NON_PRINTABLE.test(char) || (asciiOnly && code > 0x7e))) {
      out += code < 0x10000 ? `\\u${hex(code, 4)}` : `\\U${hex(code, 8)}`
    } else out += char
  }
  return out + '"'
}

/** `%q` of a string. */
export function goQuote(value: string): string {
  return quoteWith(value, false)
}

/**
 * A byte as `encoding/json` names it in a syntax error (its `quoteChar`): read as the rune of that number,
 * `%q`-quoted between single quotes; a single quote escaped, a double quote not.
 */
export function goQuoteChar(byte: number): string {
  if (byte === 0x27) return "'\\''"
  if (byte === 0x22) return `'"'`
  return `'${quoteWith(String.fromCharCode(byte), false).slice(1, -1)}'`
}

/** `%+q` of a string: non-ASCII escaped too. */
export function goQuoteAscii(value: string): string {
  return quoteWith(value, true)
}

/** `%q` of a string slice: `["a" "b"]`. */
export function goQuoteList(values: readonly string[]): string {
  return `[${values.map(goQuote).join(' ')}]`
}

/** `%v` of a string slice: `[a b]`. */
export function goList(values: readonly string[]): string {
  return `[${values.join(' ')}]`
}

/**
 * `%v` of a value decoded from a request body (JSON numbers arrive as their text): `<nil>`, `true`,
 * `[a 1]`, `map[a:1 b:x]` (Go prints map keys sorted).
 */
export function goValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>'
  if (typeof value === 'string') return value
  if (typeof value === 'boolean' || typeof value === 'number') return String(value)
  if (Array.isArray(value)) return `[${value.map(goValue).join(' ')}]`
  if (typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${key}:${goValue((value as Record<string, unknown>)[key])}`)
    return `map[${entries.join(' ')}]`
  }
  return String(value)
}

/**
 * `%s` of a value decoded from a request body: strings (and JSON numbers, which arrive as their text) as
 * they are, any other scalar as Go's bad-verb form `%!s(bool=true)`, `%!s(<nil>)`, inside lists and maps too.
 */
export function goString(value: unknown): string {
  return stringVerb(value, false)
}

/** `%s` of a value, or of one inside a slice or map, where fmt writes a nil interface as `<nil>`. */
function stringVerb(value: unknown, nested: boolean): string {
  if (value === null || value === undefined) return nested ? '<nil>' : '%!s(<nil>)'
  if (typeof value === 'string' || typeof value === 'number') return String(value)
  if (typeof value === 'boolean') return `%!s(bool=${value})`
  if (Array.isArray(value)) return `[${value.map((item) => stringVerb(item, true)).join(' ')}]`
  if (typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${key}:${stringVerb((value as Record<string, unknown>)[key], true)}`)
    return `map[${entries.join(' ')}]`
  }
  return String(value)
}

/** The Go type name `%T` prints for a decoded request value. */
export function goTypeName(value: unknown): string {
  if (value === null || value === undefined) return '<nil>'
  if (typeof value === 'string') return 'string'
  if (typeof value === 'boolean') return 'bool'
  if (typeof value === 'number') return 'float64'
  if (Array.isArray(value)) return '[]interface {}'
  return 'map[string]interface {}'
}
