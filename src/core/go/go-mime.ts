/**
 * Go's `mime.ParseMediaType`, for its answer alone: the media type (lower case, trimmed) or the error Go
 * gives, word for word. Parameters are read only as far as Go refuses them (a malformed one, a name given
 * twice with two values); their values are not kept.
 */
import { goTrimLeftSpace, goTrimSpace } from './go-strings.ts'

export type GoMediaType = { mediaType: string } | { error: string }

const TSPECIALS = new Set('()<>@,;:\\"/[]?=')
const isTokenChar = (char: string) => char > ' ' && char < '\x7f' && !TSPECIALS.has(char)

export function parseGoMediaType(value: string): GoMediaType {
  const semicolon = value.indexOf(';')
  const base = semicolon === -1 ? value : value.slice(0, semicolon)
  // ASCII letters alone: a byte above 0x7f is one byte of a UTF-8 sequence here (and never a token character).
  const mediaType = goTrimSpace(base.replace(/[A-Z]+/g, (letters) => letters.toLowerCase()))
  const refused = checkDisposition(mediaType)
  if (refused !== undefined) return { error: refused }
  const seen = new Map<string, string>()
  let rest = value.slice(base.length)
  while (rest.length > 0) {
    rest = goTrimLeftSpace(rest)
    if (rest.length === 0) break
    const param = consumeMediaParam(rest)
    if (param === undefined) {
      // A trailing semicolon is no parameter, and no error.
      if (goTrimSpace(rest) === ';') break
      return { error: 'mime: invalid media parameter' }
    }
    const previous = seen.get(param.key)
    if (previous !== undefined && previous !== param.value) return { error: 'mime: duplicate parameter name' }
    seen.set(param.key, param.value)
    rest = param.rest
  }
  return { mediaType }
}

function checkDisposition(text: string): string | undefined {
  const [type, rest] = consumeToken(text)
  if (type === '') return 'mime: no media type'
  if (rest === '') return undefined
  if (!rest.startsWith('/')) return 'mime: expected slash after first token'
  const [subtype, after] = consumeToken(rest.slice(1))
  if (subtype === '') return 'mime: expected token after slash'
  if (after !== '') return 'mime: unexpected content after media subtype'
  return undefined
}

function consumeToken(text: string): [token: string, rest: string] {
  let end = 0
  while (end < text.length && isTokenChar(text[end]!)) end++
  return [text.slice(0, end), text.slice(end)]
}

/** A token, or a quoted string (a backslash escaping a tspecial); undefined where Go consumes nothing. */
function consumeValue(text: string): [value: string, rest: string] | undefined {
  if (text === '') return undefined
  if (text[0] !== '"') {
    const [token, rest] = consumeToken(text)
    return token === '' ? undefined : [token, rest]
  }
  let value = ''
  for (let i = 1; i < text.length; i++) {
    const char = text[i]!
    if (char === '"') return [value, text.slice(i + 1)]
    if (char === '\\' && i + 1 < text.length && TSPECIALS.has(text[i + 1]!)) {
      value += text[++i]
      continue
    }
    if (char === '\r' || char === '\n') return undefined
    value += char
  }
  return undefined
}

function consumeMediaParam(text: string): { key: string; value: string; rest: string } | undefined {
  let rest = goTrimLeftSpace(text)
  if (!rest.startsWith(';')) return undefined
  rest = goTrimLeftSpace(rest.slice(1))
  const [name, afterName] = consumeToken(rest)
  if (name === '') return undefined
  rest = goTrimLeftSpace(afterName)
  if (!rest.startsWith('=')) return undefined
  rest = goTrimLeftSpace(rest.slice(1))
  const consumed = consumeValue(rest)
  if (consumed === undefined) return undefined
  return { key: name.toLowerCase(), value: consumed[0], rest: consumed[1] }
}
