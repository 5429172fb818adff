import { hasTemplate, TEMPLATE_OPEN as OPEN } from '../../../features/documents/index.ts'

export { hasTemplate }

/**
 * `${{ … }}` templates. An expression is a path over the scope (`vars.x`, `steps.login.token`,
 * `target.mount`, `run.id`, `env.HOME`, with `.name`, `.0` or `[0]` / `['a b']` segments), optionally
 * followed by `|| fallback` alternatives (another path or a literal), then optionally `| filter`s
 * (`base64`, `urlencode`) applied in order. A value that is exactly one expression keeps the type of its
 * result; expressions inside longer text are stringified.
 */
import { errorKind } from '../../../core/doppel-error.ts'
import { ownEntry } from '../../../core/own-field.ts'

const TEMPLATE_ROOTS = ['vars', 'steps', 'target', 'run', 'env'] as const
type TemplateRoot = (typeof TEMPLATE_ROOTS)[number]

export interface PathOperand {
  kind: 'path'
  root: string
  segments: (string | number)[]
  text: string
}

interface LiteralOperand {
  kind: 'literal'
  value: string | number | boolean | null
}

type Operand = PathOperand | LiteralOperand

/** Filters transform an expression's value: the spec lets a role tag travel base64-encoded, for one. */
const FILTERS: Record<string, (value: string) => string> = {
  base64: (value) => Buffer.from(value, 'utf8').toString('base64'),
  urlencode: (value) => encodeURIComponent(value),
}

export interface Expression {
  source: string
  alternatives: Operand[]
  filters: string[]
}

export type TemplatePart = string | Expression

/** A template that could not be parsed, or whose value could not be resolved. */
export class TemplateError extends errorKind('TemplateError', 'DOPPEL_INVALID_TEMPLATE') {}

/** What templates resolve against. */
export type Scope = Record<TemplateRoot, unknown>

const CLOSE = '}}'

/** Splits text into literal parts and expressions. Throws TemplateError for an unclosed or bad expression. */
export function parseTemplate(text: string): TemplatePart[] {
  const parts: TemplatePart[] = []
  let at = 0
  while (at < text.length) {
    const open = text.indexOf(OPEN, at)
    if (open === -1) {
      parts.push(text.slice(at))
      break
    }
    if (open > at) parts.push(text.slice(at, open))
    const close = text.indexOf(CLOSE, open + OPEN.length)
    if (close === -1) throw new TemplateError(`unclosed "\${{" in ${JSON.stringify(text)}`)
    parts.push(parseExpression(text.slice(open + OPEN.length, close)))
    at = close + CLOSE.length
  }
  return parts
}

/** Parses the inside of `${{ … }}`. */
export function parseExpression(source: string): Expression {
  const tokens = tokenize(source)
  const alternatives: Operand[] = []
  let i = 0
  const fail = (why: string): never => {
    throw new TemplateError(`invalid expression "\${{${source}}}": ${why}`)
  }
  for (;;) {
    const token = tokens[i]
    if (!token) fail(alternatives.length === 0 ? 'it is empty' : 'nothing after "||"')
    if (token!.type === 'literal') {
      alternatives.push({ kind: 'literal', value: token!.value as LiteralOperand['value'] })
      i++
    } else if (token!.type === 'name') {
      const root = token!.value as string
      const segments: (string | number)[] = []
      i++
      for (;;) {
        const next = tokens[i]
        if (next?.type === 'dot') {
          const name = tokens[i + 1]
          if (name?.type !== 'name' && name?.type !== 'index') fail('expected a name after "."')
          segments.push(name!.type === 'index' ? (name!.value as number) : (name!.value as string))
          i += 2
        } else if (next?.type === 'bracket') {
          segments.push(next.value as string | number)
          i++
        } else break
      }
      if (!(TEMPLATE_ROOTS as readonly string[]).includes(root)) {
        fail(`unknown name "${root}" (use ${TEMPLATE_ROOTS.map((r) => `${r}.`).join(', ')})`)
      }
      if (segments.length === 0) fail(`"${root}" needs a name after it, e.g. ${root}.x`)
      alternatives.push({ kind: 'path', root, segments, text: formatPath(root, segments) })
    } else {
      fail(`unexpected "${String(token!.value)}"`)
    }
    if (i >= tokens.length || tokens[i]!.type === 'pipe') break
    if (tokens[i]!.type !== 'or') fail(`unexpected "${String(tokens[i]!.value)}"`)
    i++
  }
  const filters: string[] = []
  while (i < tokens.length) {
    const name = tokens[i + 1]
    if (tokens[i]!.type !== 'pipe' || name?.type !== 'name') fail(`expected "| <filter>" (filters: ${Object.keys(FILTERS).join(', ')})`)
    if (ownEntry(FILTERS, name!.value as string) === undefined) fail(`unknown filter "${String(name!.value)}" (filters: ${Object.keys(FILTERS).join(', ')})`)
    filters.push(name!.value as string)
    i += 2
  }
  return { source, alternatives, filters }
}

interface Token {
  type: 'name' | 'index' | 'dot' | 'bracket' | 'or' | 'pipe' | 'literal' | 'other'
  value: unknown
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < source.length) {
    const rest = source.slice(i)
    let m: RegExpExecArray | null
    if ((m = /^\s+/.exec(rest))) {
      i += m[0].length
    } else if (rest.startsWith('||')) {
      tokens.push({ type: 'or', value: '||' })
      i += 2
    } else if (rest[0] === '|') {
      tokens.push({ type: 'pipe', value: '|' })
      i++
    } else if (rest[0] === '.') {
      tokens.push({ type: 'dot', value: '.' })
      i++
    } else if ((m = /^\[\s*(\d+)\s*\]/.exec(rest))) {
      tokens.push({ type: 'bracket', value: Number(m[1]) })
      i += m[0].length
    } else if ((m = /^\[\s*(?:'([^']*)'|"([^"]*)")\s*\]/.exec(rest))) {
      tokens.push({ type: 'bracket', value: m[1] ?? m[2] })
      i += m[0].length
    } else if ((m = /^(?:'([^']*)'|"([^"]*)")/.exec(rest))) {
      tokens.push({ type: 'literal', value: m[1] ?? m[2] })
      i += m[0].length
    } else if (tokens.at(-1)?.type === 'dot' && (m = /^\d+(?![A-Za-z_-])/.exec(rest))) {
      tokens.push({ type: 'index', value: Number(m[0]) })
      i += m[0].length
    } else if ((m = /^-?\d+(\.\d+)?(?![A-Za-z_])/.exec(rest)) && tokens.at(-1)?.type !== 'dot') {
      tokens.push({ type: 'literal', value: Number(m[0]) })
      i += m[0].length
    } else if ((m = /^[A-Za-z0-9_][A-Za-z0-9_-]*/.exec(rest))) {
      const word = m[0]
      const previous = tokens.at(-1)?.type
      if (previous !== 'dot' && (word === 'true' || word === 'false' || word === 'null')) {
        tokens.push({ type: 'literal', value: word === 'null' ? null : word === 'true' })
      } else {
        tokens.push({ type: 'name', value: word })
      }
      i += word.length
    } else {
      tokens.push({ type: 'other', value: rest[0] })
      i++
    }
  }
  return tokens
}

function formatPath(root: string, segments: (string | number)[]): string {
  return root + segments.map((s) => (typeof s === 'number' ? `[${s}]` : /^[A-Za-z0-9_-]+$/.test(s) ? `.${s}` : `['${s}']`)).join('')
}

/** Every path operand of every template inside `value` (strings, keys, nested lists and mappings). */
export function collectPaths(value: unknown): PathOperand[] {
  const out: PathOperand[] = []
  walkStrings(value, (text) => {
    if (!hasTemplate(text)) return
    for (const part of parseTemplate(text)) {
      if (typeof part !== 'string') for (const alt of part.alternatives) if (alt.kind === 'path') out.push(alt)
    }
  })
  return out
}

function walkStrings(value: unknown, visit: (text: string) => void): void {
  if (typeof value === 'string') visit(value)
  else if (Array.isArray(value)) for (const item of value) walkStrings(item, visit)
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      visit(key)
      walkStrings(item, visit)
    }
  }
}

/**
 * Resolves every template inside `value` (a deep copy is returned; the input is not touched). Values
 * under a key in `keep` stay as written (`$sameAs` references resolve at match time).
 */
export function render(value: unknown, scope: Scope, keep: ReadonlySet<string> = NOTHING): unknown {
  if (typeof value === 'string') return renderString(value, scope)
  if (Array.isArray(value)) return value.map((item) => render(item, scope, keep))
  if (typeof value === 'object' && value !== null) {
    // Built from entries: a `__proto__` key stays an own key, as JSON.parse and YAML read it.
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [hasTemplate(key) ? stringify(renderString(key, scope)) : key, keep.has(key) ? item : render(item, scope, keep)]),
    )
  }
  return value
}

const NOTHING: ReadonlySet<string> = new Set()

function renderString(text: string, scope: Scope): unknown {
  if (!hasTemplate(text)) return text
  const parts = parseTemplate(text)
  // Blank text around a lone expression (YAML folding, indentation) does not make it a string.
  const meaningful = parts.filter((part) => typeof part !== 'string' || part.trim() !== '')
  if (meaningful.length === 1 && typeof meaningful[0] !== 'string') return evaluate(meaningful[0]!, scope)
  return parts.map((part) => (typeof part === 'string' ? part : stringify(evaluate(part, scope)))).join('')
}

/** The value of an expression: the first alternative that is defined, not null and not empty; filtered. */
export function evaluate(expression: Expression, scope: Scope): unknown {
  const value = firstDefined(expression, scope)
  return expression.filters.reduce<unknown>((current, filter) => FILTERS[filter]!(stringify(current)), value)
}

function firstDefined(expression: Expression, scope: Scope): unknown {
  let last: unknown
  for (const operand of expression.alternatives) {
    last = operand.kind === 'literal' ? operand.value : lookup(operand, scope)
    if (last !== undefined && last !== null && last !== '') return last
  }
  if (last === undefined) {
    const paths = expression.alternatives.filter((a): a is PathOperand => a.kind === 'path').map((a) => a.text)
    throw new TemplateError(`${paths.join(' || ')} ${paths.length > 1 ? 'are' : 'is'} not defined`)
  }
  return last
}

function lookup(operand: PathOperand, scope: Scope): unknown {
  let node: unknown = scope[operand.root as TemplateRoot]
  for (const segment of operand.segments) {
    if (node === null || node === undefined || typeof node !== 'object') return undefined
    node = (node as Record<string | number, unknown>)[segment]
  }
  return node
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === undefined) return ''
  if (typeof value === 'object' && value !== null) return JSON.stringify(value)
  return String(value)
}
