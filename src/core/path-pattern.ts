/**
 * The one matcher for glob-like input: msw-style path patterns (`/api/v2/organizations/:org/*`, used by
 * fault injection and every route table, `core/routing`) and EC2 filter wildcards (`web-*`, `i-0?`).
 *
 * A pattern compiles to a non-deterministic automaton that is run bit-parallel over the subject (the
 * shift-and method): every character updates all states at once, so a match costs
 * O(subject length × ⌈pattern length / 32⌉) whatever the pattern. No backtracking: `*a*a*a…*b` against
 * a long path answers as fast as `/x`.
 */
import { errorKind } from './doppel-error.ts'

const SLASH = 0x2f

/**
 * The longest pattern compiled, in characters. The automaton's masks take about length² / 8 bytes and a
 * match about length / 32 word operations per subject character, so the bound keeps both small.
 */
export const PATTERN_LIMIT = 2048

/** A pattern longer than PATTERN_LIMIT. */
class PatternTooLongError extends errorKind('PatternTooLongError', 'DOPPEL_PATTERN_TOO_LONG') {}

function checkLength(pattern: string): void {
  if (pattern.length > PATTERN_LIMIT) throw new PatternTooLongError(`pattern longer than ${PATTERN_LIMIT} characters`)
}

/** What one pattern token accepts; stars loop on their own state. */
const Kind = {
  Char: 0,
  /** One character other than `/` (the first of a `:name`). */
  OneSegmentChar: 1,
  /** Any one character (`?` in a wildcard). */
  OneChar: 2,
  /** Zero or more characters other than `/` (the rest of a `:name`). */
  SegmentStar: 3,
  /** Zero or more of anything (`*`). */
  Star: 4,
} as const
type Kind = (typeof Kind)[keyof typeof Kind]

interface Token {
  kind: Kind
  char?: number
}

const ASCII = 128

/**
 * A compiled automaton: one bit per state, state 0 before the first token, state m after the last. The
 * masks sit in flat Int32Arrays, `words` integers per row: one step row per ASCII code, then one per
 * other character a Char token names, then the row of every other character.
 */
class Automaton {
  readonly #words: number
  readonly #acceptWord: number
  readonly #acceptBit: number
  /** Step rows: which states a character may enter from the state before. */
  readonly #steps: Int32Array
  /** Rows of non-ASCII characters that a Char token names. */
  readonly #namedRows = new Map<number, number>()
  readonly #otherRow: number
  /** Which stars a character may stay in: `/` (only `*`) and every other character. */
  readonly #loopSlash: Int32Array
  readonly #loopOther: Int32Array
  readonly #stars: Int32Array
  readonly #start: Int32Array

  constructor(tokens: readonly Token[]) {
    const words = (this.#words = Math.ceil((tokens.length + 1) / 32))
    this.#acceptWord = tokens.length >>> 5
    this.#acceptBit = 1 << (tokens.length & 31)
    for (const token of tokens) {
      if (token.kind === Kind.Char && token.char! >= ASCII && !this.#namedRows.has(token.char!)) {
        this.#namedRows.set(token.char!, ASCII + this.#namedRows.size)
      }
    }
    this.#otherRow = ASCII + this.#namedRows.size
    const steps = (this.#steps = new Int32Array((this.#otherRow + 1) * words))
    this.#loopSlash = new Int32Array(words)
    this.#loopOther = new Int32Array(words)
    this.#stars = new Int32Array(words)
    const set = (bits: Int32Array, offset: number, state: number) => (bits[offset + (state >>> 5)]! |= 1 << (state & 31))
    const rows = this.#otherRow + 1
    tokens.forEach((token, i) => {
      const state = i + 1
      switch (token.kind) {
        case Kind.Char:
          set(steps, this.#row(token.char!) * words, state)
          break
        case Kind.OneSegmentChar:
        case Kind.OneChar:
          for (let row = 0; row < rows; row++) if (row !== SLASH || token.kind === Kind.OneChar) set(steps, row * words, state)
          break
        case Kind.SegmentStar:
          set(this.#loopOther, 0, state)
          set(this.#stars, 0, state)
          break
        case Kind.Star:
          set(this.#loopOther, 0, state)
          set(this.#loopSlash, 0, state)
          set(this.#stars, 0, state)
          break
      }
    })
    this.#start = new Int32Array(words)
    this.#start[0] = 1
    this.#close(this.#start)
  }

  #row(code: number): number {
    return code < ASCII ? code : (this.#namedRows.get(code) ?? this.#otherRow)
  }

  /** Whether the automaton accepts `subject`; with `trailingSlash`, also `subject` minus one final `/`. */
  accepts(subject: string, trailingSlash: boolean): boolean {
    return this.#words === 1 ? this.#acceptsOneWord(subject, trailingSlash) : this.#acceptsWords(subject, trailingSlash)
  }

  /** Up to 31 tokens: the state set is one integer. */
  #acceptsOneWord(subject: string, trailingSlash: boolean): boolean {
    const steps = this.#steps
    const loopSlash = this.#loopSlash[0]!
    const loopOther = this.#loopOther[0]!
    const stars = this.#stars[0]!
    const accept = this.#acceptBit
    const last = subject.length - 1
    let state = this.#start[0]!
    let acceptedBeforeSlash = false
    for (let i = 0; i <= last; i++) {
      const code = subject.charCodeAt(i)
      if (code === SLASH && i === last && trailingSlash) acceptedBeforeSlash = (state & accept) !== 0
      const step = steps[code < ASCII ? code : this.#row(code)]!
      const next = ((state << 1) & step) | (state & (code === SLASH ? loopSlash : loopOther))
      if (next === 0) return acceptedBeforeSlash
      state = next | ((next << 1) & stars)
    }
    return acceptedBeforeSlash || (state & accept) !== 0
  }

  #acceptsWords(subject: string, trailingSlash: boolean): boolean {
    const words = this.#words
    const steps = this.#steps
    const loopSlash = this.#loopSlash
    const loopOther = this.#loopOther
    const stars = this.#stars
    const acceptWord = this.#acceptWord
    const accept = this.#acceptBit
    const state = this.#start.slice()
    const last = subject.length - 1
    let acceptedBeforeSlash = false
    for (let i = 0; i <= last; i++) {
      const code = subject.charCodeAt(i)
      if (code === SLASH && i === last && trailingSlash) acceptedBeforeSlash = (state[acceptWord]! & accept) !== 0
      const offset = (code < ASCII ? code : this.#row(code)) * words
      const loop = code === SLASH ? loopSlash : loopOther
      let carry = 0
      let closeCarry = 0
      let alive = 0
      for (let w = 0; w < words; w++) {
        const bits = state[w]!
        const next = (((bits << 1) | carry) & steps[offset + w]!) | (bits & loop[w]!)
        carry = bits >>> 31
        // The closure in the same pass: a star's bit follows the bit before it, never another star's.
        state[w] = next | (((next << 1) | closeCarry) & stars[w]!)
        closeCarry = next >>> 31
        alive |= next
      }
      if (alive === 0) return acceptedBeforeSlash
    }
    return acceptedBeforeSlash || (state[acceptWord]! & accept) !== 0
  }

  /** Entering the state before a star also enters the star (it may match nothing); stars never follow stars. */
  #close(state: Int32Array): void {
    let carry = 0
    for (let w = 0; w < this.#words; w++) {
      const bits = state[w]!
      state[w] = bits | (((bits << 1) | carry) & this.#stars[w]!)
      carry = bits >>> 31
    }
  }
}

function pushStar(tokens: Token[]): void {
  // `[^/]*` next to `.*` adds nothing, and the automaton relies on no two stars being adjacent.
  const last = tokens.at(-1)?.kind
  if (last === Kind.Star || last === Kind.SegmentStar) tokens.pop()
  tokens.push({ kind: Kind.Star })
}

function pushLiteral(tokens: Token[], text: string): void {
  for (let i = 0; i < text.length; i++) tokens.push({ kind: Kind.Char, char: text.charCodeAt(i) })
}

const PARAM = /^:[A-Za-z_][A-Za-z0-9_]*$/

/** Which text a `:name` segment accepts, beyond "one or more characters other than `/`". */
export type SegmentRule = (subject: string, from: number, to: number) => boolean

export interface PathPatternOptions {
  /**
   * `ignore` (the default): one trailing `/` on the subject is ignored. `as-written`: the subject ends in
   * `/` only where the pattern does, and a pattern ending in `/` also matches without it (Vault's `role/?`).
   * Only for patterns of whole segments.
   */
  trailingSlash?: 'ignore' | 'as-written'
  /** What a `:name` segment accepts (the auth method's name segments); only for patterns of whole segments. */
  segment?: SegmentRule
}

/** A pattern's last segment that matches the rest of the subject (`…/*`). */
const REST = Symbol('rest')
type Segment = string | null | typeof REST

/**
 * A compiled msw-style path pattern: `*` matches anything (slashes too), `:name` one or more characters
 * other than `/`, everything else itself; one trailing `/` on the subject is ignored. A pattern that
 * starts with a scheme (`http://host/…`) matches full URLs without their query.
 */
export class PathPattern {
  readonly pattern: string
  /** Only for a pattern not of whole segments: the others match segment by segment (route tables, at start-up). */
  readonly #automaton: Automaton | undefined
  readonly #fullUrl: boolean
  /** Literal text every match starts with (a cheap first check). */
  readonly #prefix: string
  /**
   * The pattern's segments (null for a `:name`, REST for a final `*`), when it is made of whole segments.
   * Such a pattern matches segment by segment: the same rule as the automaton, and cheaper (route tables).
   */
  readonly #segments: Segment[] | undefined
  /** `:name` segments by position, for such a pattern. */
  readonly #params: [index: number, name: string][] | undefined
  /** Each segment's end in the subject last matched: written by every segment match, read at once by `match`. */
  readonly #ends: Int32Array | undefined
  readonly #optionalSlash: boolean
  readonly #segmentRule: SegmentRule | undefined

  /** Throws PatternTooLongError past PATTERN_LIMIT, PatternShapeError for options on a pattern they do not fit. */
  constructor(pattern: string, options: PathPatternOptions = {}) {
    checkLength(pattern)
    this.pattern = pattern
    this.#fullUrl = /^[a-z]+:\/\//i.test(pattern)
    const parts = pattern.split(/(\*|:[A-Za-z_][A-Za-z0-9_]*)/)
    const asWritten = options.trailingSlash === 'as-written'
    // As written, a pattern's own trailing slash is the optional one: `role/` matches `role` and `role/`.
    const slashOptional = asWritten && pattern.endsWith('/')
    this.#optionalSlash = !asWritten || slashOptional
    this.#segmentRule = options.segment
    const body = slashOptional ? pattern.slice(0, -1) : pattern
    this.#prefix = slashOptional && parts.length === 1 ? body : (parts[0] ?? '')
    const segments = body.split('/')
    // Whole segments only: `*` only as the last segment, and every `:name` fills its segment.
    const rest = segments.at(-1) === '*' && segments.length > 1
    const aligned =
      body.indexOf('*') === (rest ? body.length - 1 : -1) && segments.every((segment) => segment === '*' || PARAM.test(segment) || !/:[A-Za-z_]/.test(segment))
    if (!aligned && (asWritten || options.segment)) throw new PatternShapeError(`path pattern ${pattern} is not made of whole segments`)
    this.#segments = aligned ? segments.map((segment): Segment => (segment === '*' ? REST : PARAM.test(segment) ? null : segment)) : undefined
    this.#params = aligned ? segments.flatMap((segment, index): [number, string][] => (PARAM.test(segment) ? [[index, segment.slice(1)]] : [])) : undefined
    this.#ends = aligned ? new Int32Array(segments.length) : undefined
    this.#automaton = aligned ? undefined : new Automaton(patternTokens(parts))
  }

  /** Whether `subject` (a path, or an origin plus path for full-URL patterns) matches. */
  test(subject: string): boolean {
    if (!subject.startsWith(this.#prefix)) return false
    return this.#segments ? this.#matchSegments(subject) : this.#automaton!.accepts(subject, true)
  }

  /** Matches a pattern of whole segments, writing each segment's end index into `#ends`. */
  #matchSegments(subject: string): boolean {
    const pattern = this.#segments!
    const ends = this.#ends!
    const rule = this.#segmentRule
    const length = subject.length
    let at = 0
    for (let i = 0; i < pattern.length; i++) {
      if (i > 0) {
        if (at >= length || subject.charCodeAt(at) !== SLASH) return false
        at++
      }
      const expected = pattern[i]!
      if (expected === REST) {
        ends[i] = length
        return true
      }
      if (expected === null) {
        const from = at
        while (at < length && subject.charCodeAt(at) !== SLASH) at++
        if (at === from || (rule !== undefined && !rule(subject, from, at))) return false
      } else {
        for (let k = 0; k < expected.length; k++) if (subject.charCodeAt(at + k) !== expected.charCodeAt(k)) return false
        at += expected.length
        if (at < length && subject.charCodeAt(at) !== SLASH) return false
      }
      ends[i] = at
    }
    // Past the last segment: the end, or one trailing slash where it is optional.
    return at === length || (this.#optionalSlash && at === length - 1 && subject.charCodeAt(at) === SLASH)
  }

  /** Whether a request URL matches: full-URL patterns see the URL without query, others the path. */
  testUrl(url: URL): boolean {
    return this.test(this.#fullUrl ? `${url.origin}${url.pathname}` : url.pathname)
  }

  /**
   * The `:name` segments of a matching path, raw (not percent-decoded); undefined when it does not match.
   * Names are captured for patterns of whole segments (each `:name` a segment of its own, `*` only last).
   */
  match(subject: string): Record<string, string> | undefined {
    if (!this.test(subject)) return undefined
    const params: Record<string, string> = {}
    if (this.#params) {
      const ends = this.#ends!
      for (const [index, name] of this.#params) params[name] = subject.slice(index === 0 ? 0 : ends[index - 1]! + 1, ends[index])
    }
    return params
  }
}

/** A pattern's tokens, from its parts split at each `*` and `:name`. */
function patternTokens(parts: readonly string[]): Token[] {
  const tokens: Token[] = []
  for (const part of parts) {
    if (part === '*') pushStar(tokens)
    else if (PARAM.test(part)) tokens.push({ kind: Kind.OneSegmentChar }, { kind: Kind.SegmentStar })
    else pushLiteral(tokens, part)
  }
  return tokens
}

/** Options that do not fit a pattern: `as-written` or a segment rule on one that is not of whole segments. */
export class PatternShapeError extends errorKind('PatternShapeError', 'DOPPEL_ROUTE_PATTERN_SHAPE') {}

/** Compiles a path pattern once; see PathPattern. */
export function compilePathPattern(pattern: string, options?: PathPatternOptions): PathPattern {
  return new PathPattern(pattern, options)
}

/**
 * A wildcard over a whole value (EC2 filter values): `*` any run of characters, `?` any one character.
 * Throws PatternTooLongError past PATTERN_LIMIT.
 */
export function compileWildcard(wildcard: string): (value: string) => boolean {
  checkLength(wildcard)
  const tokens: Token[] = []
  for (let i = 0; i < wildcard.length; i++) {
    const char = wildcard[i]
    if (char === '*') pushStar(tokens)
    else if (char === '?') tokens.push({ kind: Kind.OneChar })
    else tokens.push({ kind: Kind.Char, char: wildcard.charCodeAt(i) })
  }
  const automaton = new Automaton(tokens)
  return (value) => automaton.accepts(value, false)
}
