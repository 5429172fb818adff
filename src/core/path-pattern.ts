/**
 * The one matcher for glob-like input: msw-style path patterns (`/api/v2/organizations/:org/*`, used by
 * fault injection and the registry's route tables) and EC2 filter wildcards (`web-*`, `i-0?`).
 *
 * A pattern compiles to a non-deterministic automaton that is run bit-parallel over the subject (the
 * shift-and method): every character updates all states at once, so a match costs
 * O(subject length × ⌈pattern length / 32⌉) whatever the pattern. No backtracking: `*a*a*a…*b` against
 * a long path answers as fast as `/x`.
 */

const SLASH = 0x2f

/**
 * The longest pattern compiled, in characters. The automaton's masks take about length² / 8 bytes and a
 * match about length / 32 word operations per subject character, so the bound keeps both small.
 */
export const PATTERN_LIMIT = 2048

/** A pattern longer than PATTERN_LIMIT. */
export class PatternTooLongError extends Error {
  override name = 'PatternTooLongError'
}

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

/** A compiled automaton: one bit per state, state 0 before the first token, state m after the last. */
class Automaton {
  readonly #words: number
  readonly #acceptWord: number
  readonly #acceptBit: number
  /** Per character code that a Char token names: the single-step states it may enter. */
  readonly #stepByChar = new Map<number, Uint32Array>()
  readonly #stepSlash: Uint32Array
  readonly #stepOther: Uint32Array
  readonly #loopSlash: Uint32Array
  readonly #loopOther: Uint32Array
  readonly #stars: Uint32Array
  readonly #start: Uint32Array

  constructor(tokens: readonly Token[]) {
    const states = tokens.length + 1
    const words = (this.#words = Math.ceil(states / 32))
    this.#acceptWord = tokens.length >>> 5
    this.#acceptBit = 1 << (tokens.length & 31)
    const mask = () => new Uint32Array(words)
    const set = (bits: Uint32Array, state: number) => (bits[state >>> 5]! |= 1 << (state & 31))
    this.#stepSlash = mask()
    this.#stepOther = mask()
    this.#loopSlash = mask()
    this.#loopOther = mask()
    this.#stars = mask()
    const chars = new Set(tokens.filter((t) => t.kind === Kind.Char).map((t) => t.char!))
    for (const char of chars) this.#stepByChar.set(char, mask())
    tokens.forEach((token, i) => {
      const state = i + 1
      switch (token.kind) {
        case Kind.Char:
          set(token.char === SLASH ? this.#stepSlash : this.#stepByChar.get(token.char!)!, state)
          break
        case Kind.OneSegmentChar:
          set(this.#stepOther, state)
          break
        case Kind.OneChar:
          set(this.#stepOther, state)
          set(this.#stepSlash, state)
          break
        case Kind.SegmentStar:
          set(this.#loopOther, state)
          set(this.#stars, state)
          break
        case Kind.Star:
          set(this.#loopOther, state)
          set(this.#loopSlash, state)
          set(this.#stars, state)
          break
      }
    })
    // A named character also takes every step an unnamed one would (`:name`, `?`).
    for (const [char, bits] of this.#stepByChar) {
      if (char === SLASH) continue
      for (let w = 0; w < words; w++) bits[w]! |= this.#stepOther[w]!
    }
    this.#stepByChar.set(SLASH, this.#stepSlash)
    this.#start = mask()
    this.#start[0] = 1
    this.#close(this.#start)
  }

  /** Whether the automaton accepts `subject`; with `trailingSlash`, also `subject` minus one final `/`. */
  accepts(subject: string, trailingSlash: boolean): boolean {
    const words = this.#words
    const state = this.#start.slice()
    const last = subject.length - 1
    let acceptedBeforeSlash = false
    for (let i = 0; i <= last; i++) {
      const code = subject.charCodeAt(i)
      if (i === last && trailingSlash && code === SLASH) acceptedBeforeSlash = (state[this.#acceptWord]! & this.#acceptBit) !== 0
      const step = this.#stepByChar.get(code) ?? this.#stepOther
      const loop = code === SLASH ? this.#loopSlash : this.#loopOther
      let carry = 0
      let alive = 0
      for (let w = 0; w < words; w++) {
        const bits = state[w]!
        const next = (((bits << 1) | carry) & step[w]!) | (bits & loop[w]!)
        carry = bits >>> 31
        state[w] = next
        alive |= next
      }
      if (alive === 0) return acceptedBeforeSlash
      this.#close(state)
    }
    return acceptedBeforeSlash || (state[this.#acceptWord]! & this.#acceptBit) !== 0
  }

  /** Entering the state before a star also enters the star (it may match nothing); stars never follow stars. */
  #close(state: Uint32Array): void {
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

/**
 * A compiled msw-style path pattern: `*` matches anything (slashes too), `:name` one or more characters
 * other than `/`, everything else itself; one trailing `/` on the subject is ignored. A pattern that
 * starts with a scheme (`http://host/…`) matches full URLs without their query.
 */
export class PathPattern {
  readonly pattern: string
  readonly #automaton: Automaton
  readonly #fullUrl: boolean
  /** Literal text every match starts with (a cheap first check). */
  readonly #prefix: string
  /** `:name` segments by position, when the pattern has no `*` (segments then line up one to one). */
  readonly #params: [index: number, name: string][] | undefined

  /** Throws PatternTooLongError past PATTERN_LIMIT. */
  constructor(pattern: string) {
    checkLength(pattern)
    this.pattern = pattern
    this.#fullUrl = /^[a-z]+:\/\//i.test(pattern)
    const tokens: Token[] = []
    const parts = pattern.split(/(\*|:[A-Za-z_][A-Za-z0-9_]*)/)
    for (const part of parts) {
      if (part === '*') pushStar(tokens)
      else if (PARAM.test(part)) tokens.push({ kind: Kind.OneSegmentChar }, { kind: Kind.SegmentStar })
      else pushLiteral(tokens, part)
    }
    this.#automaton = new Automaton(tokens)
    this.#prefix = parts[0] ?? ''
    this.#params = pattern.includes('*')
      ? undefined
      : pattern.split('/').flatMap((segment, index): [number, string][] => (PARAM.test(segment) ? [[index, segment.slice(1)]] : []))
  }

  /** Whether `subject` (a path, or an origin plus path for full-URL patterns) matches. */
  test(subject: string): boolean {
    return subject.startsWith(this.#prefix) && this.#automaton.accepts(subject, true)
  }

  /** Whether a request URL matches: full-URL patterns see the URL without query, others the path. */
  testUrl(url: URL): boolean {
    return this.test(this.#fullUrl ? `${url.origin}${url.pathname}` : url.pathname)
  }

  /**
   * The `:name` segments of a matching path, raw (not percent-decoded); undefined when it does not match.
   * Names are captured for patterns without `*` whose `:name`s fill whole segments.
   */
  match(subject: string): Record<string, string> | undefined {
    if (!this.test(subject)) return undefined
    const params: Record<string, string> = {}
    if (this.#params && this.#params.length > 0) {
      const segments = subject.split('/')
      for (const [index, name] of this.#params) params[name] = segments[index]!
    }
    return params
  }
}

/** Compiles a path pattern once; see PathPattern. */
export function compilePathPattern(pattern: string): PathPattern {
  return new PathPattern(pattern)
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
