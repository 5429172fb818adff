/**
 * A forgiving scanner for HCL native syntax: top-level blocks, their labels, attributes and literal values.
 * It reads what the registry shows about a module (variables, outputs, resources, module calls,
 * required_providers) and never throws: text it cannot read is skipped.
 */

export type HclValue =
  | { kind: 'string'; value: string; raw: string }
  | { kind: 'number'; value: number; raw: string }
  | { kind: 'bool'; value: boolean; raw: string }
  | { kind: 'null'; raw: string }
  | { kind: 'tuple'; items: HclValue[]; raw: string }
  | { kind: 'object'; entries: [string, HclValue][]; raw: string }
  /** Anything that is not a literal: references, function calls, templates, operators. */
  | { kind: 'expression'; raw: string }

interface HclBlock {
  type: string
  labels: string[]
  body: HclBody
}

export interface HclBody {
  attributes: Map<string, HclValue>
  blocks: HclBlock[]
}

interface Token {
  kind: 'ident' | 'string' | 'number' | 'punct' | 'newline' | 'other'
  text: string
  start: number
  end: number
  /** The decoded value of a string without template sequences. */
  value?: string
}

/** Nesting beyond this is read as an opaque expression, so hostile input cannot exhaust the stack. */
const MAX_DEPTH = 64
const IDENT = /[A-Za-z_][A-Za-z0-9_-]*/y
const NUMBER = /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y
const HEREDOC = /<<(-?)([A-Za-z_][A-Za-z0-9_-]*)[ \t]*\r?\n/y
const OPERATORS = ['...', '==', '!=', '<=', '>=', '&&', '||', '=>']
const PUNCT = '{}[]()=,:?.!<>*/%+-&|'
const OPEN = new Set(['{', '[', '('])
const CLOSE = new Set(['}', ']', ')'])

/** The top-level body of an HCL file. */
export function scanHcl(source: string): HclBody {
  return new Parser(source, tokenize(source)).body()
}

/** A value as JSON text when it is a literal all the way down, else undefined. */
export function hclValueToJson(value: HclValue): string | undefined {
  const plain = toPlain(value, 0)
  return plain === undefined ? undefined : JSON.stringify(plain)
}

function toPlain(value: HclValue, depth: number): unknown {
  if (depth > MAX_DEPTH) return undefined
  switch (value.kind) {
    case 'string':
    case 'number':
    case 'bool':
      return value.value
    case 'null':
      return null
    case 'tuple': {
      const items = value.items.map((item) => toPlain(item, depth + 1))
      return items.includes(undefined) ? undefined : items
    }
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const [key, item] of value.entries) {
        const plain = toPlain(item, depth + 1)
        if (plain === undefined) return undefined
        Object.defineProperty(out, key, { value: plain, enumerable: true, writable: true, configurable: true })
      }
      return out
    }
    default:
      return undefined
  }
}

function tokenize(src: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  const push = (kind: Token['kind'], start: number, end: number, value?: string) => {
    tokens.push({ kind, text: src.slice(start, end), start, end, ...(value !== undefined && { value }) })
  }
  while (i < src.length) {
    const c = src[i]!
    if (c === '\n') {
      push('newline', i, i + 1)
      i++
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\uFEFF') {
      i++
    } else if (c === '#' || (c === '/' && src[i + 1] === '/')) {
      while (i < src.length && src[i] !== '\n') i++
    } else if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2)
      i = end === -1 ? src.length : end + 2
    } else if (c === '"') {
      const { end, templated } = scanQuoted(src, i)
      push('string', i, end, templated ? undefined : decodeQuoted(src.slice(i + 1, src[end - 1] === '"' && end - 1 > i ? end - 1 : end)))
      i = end
    } else if (c === '<' && src[i + 1] === '<' && matchAt(HEREDOC, src, i)) {
      i = scanHeredoc(src, i, push)
    } else if (matchAt(NUMBER, src, i)) {
      const end = i + matchAt(NUMBER, src, i)!.length
      push('number', i, end)
      i = end
    } else if (matchAt(IDENT, src, i)) {
      const end = i + matchAt(IDENT, src, i)!.length
      push('ident', i, end)
      i = end
    } else {
      const op = OPERATORS.find((o) => src.startsWith(o, i))
      const length = op ? op.length : 1
      push(op || PUNCT.includes(c) ? 'punct' : 'other', i, i + length)
      i += length
    }
  }
  return tokens
}

function matchAt(pattern: RegExp, src: string, at: number): string | undefined {
  pattern.lastIndex = at
  return pattern.exec(src)?.[0]
}

/** The end of a quoted string, following `${ … }` template sequences (which may hold strings) with a stack. */
function scanQuoted(src: string, start: number): { end: number; templated: boolean } {
  const stack: ('string' | number)[] = ['string']
  let templated = false
  let j = start + 1
  while (j < src.length && stack.length > 0) {
    const top = stack[stack.length - 1]!
    const c = src[j]!
    if (top === 'string') {
      if (c === '\\') j += 2
      else if (c === '"') {
        stack.pop()
        j++
      } else if (c === '\n') return { end: j, templated }
      else if ((c === '$' || c === '%') && src[j + 1] === c && src[j + 2] === '{') j += 3
      else if ((c === '$' || c === '%') && src[j + 1] === '{') {
        templated = true
        stack.push(0)
        j += 2
      } else j++
    } else {
      if (c === '"') stack.push('string')
      else if (c === '{') stack[stack.length - 1] = top + 1
      else if (c === '}') {
        if (top === 0) stack.pop()
        else stack[stack.length - 1] = top - 1
      }
      j++
    }
  }
  return { end: Math.min(j, src.length), templated }
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' }

function decodeQuoted(body: string): string {
  let out = ''
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!
    if (c === '\\' && i + 1 < body.length) {
      const e = body[i + 1]!
      const hex = e === 'u' ? body.slice(i + 2, i + 6) : e === 'U' ? body.slice(i + 2, i + 10) : ''
      if (hex && /^[0-9A-Fa-f]+$/.test(hex) && hex.length === (e === 'u' ? 4 : 8) && parseInt(hex, 16) <= 0x10ffff) {
        out += String.fromCodePoint(parseInt(hex, 16))
        i += 1 + hex.length
      } else {
        out += ESCAPES[e] ?? e
        i++
      }
    } else if ((c === '$' || c === '%') && body[i + 1] === c && body[i + 2] === '{') {
      out += c + '{'
      i += 2
    } else out += c
  }
  return out
}

function scanHeredoc(src: string, start: number, push: (kind: Token['kind'], s: number, e: number, value?: string) => void): number {
  HEREDOC.lastIndex = start
  const m = HEREDOC.exec(src)!
  const indented = m[1] === '-'
  const marker = m[2]!
  const lines: string[] = []
  let i = start + m[0].length
  let end = src.length
  while (i < src.length) {
    const nl = src.indexOf('\n', i)
    const lineEnd = nl === -1 ? src.length : nl
    const line = src.slice(i, lineEnd).replace(/\r$/, '')
    if (line.trim() === marker) {
      end = lineEnd
      break
    }
    lines.push(line)
    i = lineEnd + 1
  }
  let text = lines
  if (indented) {
    const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)![0].length)
    const strip = indents.length ? Math.min(...indents) : 0
    text = lines.map((l) => l.slice(strip))
  }
  const value = text.length ? text.join('\n') + '\n' : ''
  push('string', start, end, /(^|[^$%])[$%]\{/.test(value) ? undefined : value)
  return end
}

class Parser {
  #src: string
  #tokens: Token[]
  #p = 0

  constructor(src: string, tokens: Token[]) {
    this.#src = src
    this.#tokens = tokens
  }

  body(): HclBody {
    return this.#body(false, 0)
  }

  #is(token: Token | undefined, kind: Token['kind'], text?: string): boolean {
    return token !== undefined && token.kind === kind && (text === undefined || token.text === text)
  }

  #body(nested: boolean, depth: number): HclBody {
    const body: HclBody = { attributes: new Map(), blocks: [] }
    const tokens = this.#tokens
    while (this.#p < tokens.length) {
      const t = tokens[this.#p]!
      if (t.kind === 'newline') {
        this.#p++
      } else if (this.#is(t, 'punct', '}')) {
        this.#p++
        if (nested) return body
      } else if (t.kind === 'ident' && this.#is(tokens[this.#p + 1], 'punct', '=')) {
        this.#p += 2
        body.attributes.set(t.text, this.#expression(false, depth))
      } else if (t.kind === 'ident') {
        const labels: string[] = []
        let q = this.#p + 1
        while (q < tokens.length && (tokens[q]!.kind === 'ident' || (tokens[q]!.kind === 'string' && tokens[q]!.value !== undefined))) {
          labels.push(tokens[q]!.value ?? tokens[q]!.text)
          q++
        }
        if (this.#is(tokens[q], 'punct', '{')) {
          this.#p = q + 1
          if (depth >= MAX_DEPTH) this.#skipBalanced()
          else body.blocks.push({ type: t.text, labels, body: this.#body(true, depth + 1) })
        } else this.#skipLine()
      } else this.#skipLine()
    }
    return body
  }

  /** Skips the current token and the rest of its statement, up to a newline outside brackets or an unmatched `}`. */
  #skipLine(): void {
    const first = this.#tokens[this.#p++]!
    let depth = first.kind === 'punct' && OPEN.has(first.text) ? 1 : 0
    while (this.#p < this.#tokens.length) {
      const t = this.#tokens[this.#p]!
      if (t.kind === 'punct' && OPEN.has(t.text)) depth++
      else if (t.kind === 'punct' && CLOSE.has(t.text)) {
        if (depth === 0) return
        depth--
      } else if (t.kind === 'newline' && depth === 0) {
        this.#p++
        return
      }
      this.#p++
    }
  }

  /** Skips to just past the `}` closing a block whose `{` was consumed. */
  #skipBalanced(): void {
    let depth = 1
    while (this.#p < this.#tokens.length && depth > 0) {
      const t = this.#tokens[this.#p++]!
      if (t.kind === 'punct' && OPEN.has(t.text)) depth++
      else if (t.kind === 'punct' && CLOSE.has(t.text)) depth--
    }
  }

  /** Reads an expression up to a newline outside brackets, an unmatched closer or (in a list) a comma. */
  #expression(stopAtComma: boolean, depth: number): HclValue {
    const start = this.#p
    let level = 0
    while (this.#p < this.#tokens.length) {
      const t = this.#tokens[this.#p]!
      if (t.kind === 'punct' && OPEN.has(t.text)) level++
      else if (t.kind === 'punct' && CLOSE.has(t.text)) {
        if (level === 0) break
        level--
      } else if (level === 0 && (t.kind === 'newline' || (stopAtComma && this.#is(t, 'punct', ',')))) break
      this.#p++
    }
    return this.#evaluate(start, this.#p, depth)
  }

  #raw(start: number, end: number): string {
    return start >= end ? '' : this.#src.slice(this.#tokens[start]!.start, this.#tokens[end - 1]!.end)
  }

  /** The value of tokens [start, end): literals, tuples and objects of literals, else an expression. */
  #evaluate(start: number, end: number, depth: number): HclValue {
    const tokens = this.#tokens
    while (start < end && tokens[start]!.kind === 'newline') start++
    while (end > start && tokens[end - 1]!.kind === 'newline') end--
    const raw = this.#raw(start, end)
    if (end - start === 1) {
      const t = tokens[start]!
      if (t.kind === 'string' && t.value !== undefined) return { kind: 'string', value: t.value, raw }
      if (t.kind === 'number') return { kind: 'number', value: Number(t.text), raw }
      if (t.kind === 'ident' && (t.text === 'true' || t.text === 'false')) return { kind: 'bool', value: t.text === 'true', raw }
      if (t.kind === 'ident' && t.text === 'null') return { kind: 'null', raw }
    }
    if (end - start >= 2 && depth < MAX_DEPTH && this.#closesAt(start, end - 1)) {
      const open = tokens[start]!.text
      if (open === '[') {
        const items = this.#split(start + 1, end - 1, false).map(([s, e]) => this.#evaluate(s, e, depth + 1))
        return { kind: 'tuple', items, raw }
      }
      if (open === '{') {
        const entries = this.#objectEntries(start + 1, end - 1, depth + 1)
        if (entries) return { kind: 'object', entries, raw }
      }
    }
    return { kind: 'expression', raw }
  }

  /** Whether the bracket opened at `start` is closed exactly at `last`. */
  #closesAt(start: number, last: number): boolean {
    const first = this.#tokens[start]!
    if (first.kind !== 'punct' || (first.text !== '[' && first.text !== '{')) return false
    let level = 0
    for (let i = start; i <= last; i++) {
      const t = this.#tokens[i]!
      if (t.kind === 'punct' && OPEN.has(t.text)) level++
      else if (t.kind === 'punct' && CLOSE.has(t.text)) {
        level--
        if (level === 0) return i === last
      }
    }
    return false
  }

  /** Splits [start, end) at top-level commas (and newlines, for object items) into non-empty ranges. */
  #split(start: number, end: number, atNewlines: boolean): [number, number][] {
    const ranges: [number, number][] = []
    let level = 0
    let from = start
    const close = (to: number) => {
      let s = from
      while (s < to && this.#tokens[s]!.kind === 'newline') s++
      if (s < to) ranges.push([s, to])
    }
    for (let i = start; i < end; i++) {
      const t = this.#tokens[i]!
      if (t.kind === 'punct' && OPEN.has(t.text)) level++
      else if (t.kind === 'punct' && CLOSE.has(t.text)) level--
      else if (level === 0 && (this.#is(t, 'punct', ',') || (atNewlines && t.kind === 'newline'))) {
        close(i)
        from = i + 1
      }
    }
    close(end)
    return ranges
  }

  #objectEntries(start: number, end: number, depth: number): [string, HclValue][] | undefined {
    const entries: [string, HclValue][] = []
    for (const [s, e] of this.#split(start, end, true)) {
      const key = this.#tokens[s]!
      const sep = this.#tokens[s + 1]
      if (!(key.kind === 'ident' || (key.kind === 'string' && key.value !== undefined))) return undefined
      if (!sep || !(this.#is(sep, 'punct', '=') || this.#is(sep, 'punct', ':'))) return undefined
      entries.push([key.value ?? key.text, this.#evaluate(s + 2, e, depth)])
    }
    return entries
  }
}
