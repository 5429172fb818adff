/**
 * Nesting limits for JSON and YAML bodies, checked by a linear scan BEFORE any structure is built: a
 * 200k-deep `[[[[…` is refused in milliseconds instead of being parsed (seconds, gigabytes) and then
 * walked by recursive code.
 */

/** doppel's own inputs (control API, fixtures, scenarios) and the registry (Rails' JSON `max_nesting`). */
export const NESTING_LIMIT = 100

/**
 * The auth service's JSON (request bodies, identity documents, header fields). Go's `encoding/json` stops
 * at 10000 levels; doppel stops at 1000, because the code that reads the values (number detection, Go-style
 * value formatting in error messages) recurses, and 10000 frames can exhaust the stack.
 */
export const SERVICE_NESTING_LIMIT = 1000

/**
 * The auth service's JSON entries: at most 10,000 in one object or array, as the real service's listener
 * defaults (`max_json_object_entry_count`, `max_json_array_element_count`: docs/reference/cloud-auth.md §1.3),
 * and 20,000 in a whole body, doppel's own bound: parsing 20,000 entries takes a few milliseconds,
 * 500,000 half a second of every other request's time.
 */
export const SERVICE_ENTRY_LIMITS: EntryLimits = { perCollection: 10_000, total: 20_000 }

/** A body nested deeper than its limit. A SyntaxError, so every "cannot parse" path refuses it. */
export class NestingTooDeepError extends SyntaxError {
  override name = 'NestingTooDeepError'
  readonly limit: number
  constructor(limit: number) {
    super(`nested deeper than ${limit} levels`)
    this.limit = limit
  }
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d

/** JSON as text, or as the UTF-8 bytes it arrived in (every byte the scan looks for is ASCII, which UTF-8 never uses inside a character). */
type JsonSource = string | Uint8Array

function codeAt(text: JsonSource, i: number): number | undefined {
  return typeof text === 'string' ? text.charCodeAt(i) : text[i]
}

/**
 * How many entries (an object's members, an array's elements) a JSON text may hold: in any one
 * collection, and in all of them together. Counted by the same scan as nesting, before parsing, so a body
 * of a million keys is refused in the time it takes to find its limit instead of being parsed (seconds,
 * every other request waiting).
 */
export interface EntryLimits {
  /** Entries in one object or array. */
  perCollection: number
  /** Entries after the first of each collection, in all collections together (the separators between entries). */
  total: number
}

/** A body with more entries than its limits allow. A SyntaxError, so every "cannot parse" path refuses it. */
export class TooManyEntriesError extends SyntaxError {
  override name = 'TooManyEntriesError'
  constructor(limit: number, where: 'in one collection' | 'in all') {
    super(`more than ${limit} entries ${where}`)
  }
}

const COMMA = 0x2c

/**
 * A scan of JSON that may arrive in pieces (a body as it is read): strings skipped, nesting and entries
 * counted, stopped as soon as a limit is passed. Unless `whole`, it ends where the first value closes.
 */
export class JsonScan {
  readonly #limit: number
  readonly #entries: EntryLimits | undefined
  readonly #whole: boolean
  #depth = 0
  // Commas seen in each open collection (entries are commas + 1), and in all.
  readonly #commas: number[] = []
  #total = 0
  #collections = 0
  #inString = false
  /** Backslashes that ended the previous piece inside a string (an odd count escapes this piece's first character). */
  #backslashes = 0
  #ended = false

  constructor(limit: number, entries?: EntryLimits, whole = false) {
    this.#limit = limit
    this.#entries = entries
    this.#whole = whole
  }

  /**
   * Scans the next piece: the index in it just past the bracket that closes the first value, or -1 (not
   * closed yet, or `whole`). Throws NestingTooDeepError or TooManyEntriesError as soon as a limit is passed.
   */
  push(text: JsonSource): number {
    if (this.#ended) return -1
    const entries = this.#entries
    for (let i = 0; i < text.length; i++) {
      if (this.#inString) {
        i = this.#stringEnd(text, i)
        continue
      }
      const code = codeAt(text, i)
      if (code === QUOTE) {
        this.#inString = true
        this.#backslashes = 0
      } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        if (++this.#depth > this.#limit) throw new NestingTooDeepError(this.#limit)
        this.#collections++
        if (entries) this.#commas[this.#depth] = 0
      } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        if (this.#depth > 0) this.#depth--
        if (this.#depth === 0 && !this.#whole) {
          this.#ended = true
          return i + 1
        }
      } else if (code === COMMA && entries && this.#depth > 0) {
        if (++this.#commas[this.#depth]! >= entries.perCollection) throw new TooManyEntriesError(entries.perCollection, 'in one collection')
        if (++this.#total > entries.total) throw new TooManyEntriesError(entries.total, 'in all')
      }
    }
    return -1
  }

  /**
   * Objects and arrays opened so far, and the entries after the first of each (counted with `entries`
   * given): what the parsed value will hold beside its strings, for sizing the heap that parses it.
   */
  get structures(): number {
    return this.#collections + this.#total
  }

  /** Inside a string from `from`: the index of its closing quote (the string then closed), or the piece's last index. */
  #stringEnd(text: JsonSource, from: number): number {
    // indexOf runs far faster than a loop over characters; long base64 strings are most of a login body.
    for (let at = from; ; at++) {
      at = typeof text === 'string' ? text.indexOf('"', at) : text.indexOf(QUOTE, at)
      if (at === -1) {
        this.#backslashes = backslashesBefore(text, text.length, from) + (endsRun(text, text.length, from) ? this.#backslashes : 0)
        return text.length - 1
      }
      const run = backslashesBefore(text, at, from) + (endsRun(text, at, from) ? this.#backslashes : 0)
      if (run % 2 === 0) {
        this.#inString = false
        return at
      }
    }
  }
}

/** How many backslashes stand just before `at`, not looking before `from`. */
function backslashesBefore(text: JsonSource, at: number, from: number): number {
  let n = 0
  while (at - 1 - n >= from && codeAt(text, at - 1 - n) === BACKSLASH) n++
  return n
}

/** Whether the backslashes before `at` reach back to the start of a piece that began inside the string. */
function endsRun(text: JsonSource, at: number, from: number): boolean {
  return from === 0 && at - backslashesBefore(text, at, from) === 0
}

/**
 * Throws NestingTooDeepError when any JSON value in `text` nests deeper than `limit` (TooManyEntriesError
 * past `entries`). Given bytes, it checks a body before it is decoded.
 */
export function checkJsonDepth(text: JsonSource, limit: number, entries?: EntryLimits): void {
  // Each level opens with a character of its own: a text no longer than the limit cannot pass it.
  if (entries === undefined && text.length <= limit) return
  new JsonScan(limit, entries, true).push(text)
}

/** `JSON.parse` after the nesting check. */
export function parseJsonBounded(text: string, limit = NESTING_LIMIT): unknown {
  checkJsonDepth(text, limit)
  return JSON.parse(text)
}

/**
 * An upper bound on the nesting of a YAML document, checked line by line: block collections by the
 * stack of indentation columns (compact `- - x` and `- a: b` count a level per indicator), flow
 * collections by their brackets; quoted scalars, comments and block scalars (`|`, `>`) are skipped.
 * It may count a level more than the parser would (it does not know which plain scalars are keys), never
 * fewer. Throws NestingTooDeepError with the 1-based line where the limit was passed.
 */
export function checkYamlDepth(text: string, limit = NESTING_LIMIT): void {
  new YamlDepthScan(text, limit).run()
}

/** The line a YAML nesting refusal points at. */
export class YamlNestingError extends NestingTooDeepError {
  readonly line: number
  constructor(limit: number, line: number) {
    super(limit)
    this.line = line
  }
}

class YamlDepthScan {
  readonly #text: string
  readonly #limit: number
  /** Columns of the open block collections. */
  readonly #blocks: number[] = []
  #flow = 0
  #line = 1
  /** Inside a block scalar: lines indented more than this belong to it. */
  #blockScalarIndent = -1

  constructor(text: string, limit: number) {
    this.#text = text
    this.#limit = limit
  }

  run(): void {
    const text = this.#text
    let lineStart = 0
    while (lineStart < text.length) {
      let end = text.indexOf('\n', lineStart)
      if (end === -1) end = text.length
      // A multi-line quoted scalar moves the end past this line.
      lineStart = this.#scanLine(lineStart, end) + 1
      this.#line++
    }
  }

  #check(): void {
    if (this.#blocks.length + this.#flow > this.#limit) throw new YamlNestingError(this.#limit, this.#line)
  }

  /** Scans the line from `start` to `end`; answers where the scan stopped (past `end` after a multi-line quote). */
  #scanLine(start: number, end: number): number {
    const text = this.#text
    let i = start
    while (i < end && (text[i] === ' ' || text[i] === '\t')) i++
    if (i === end || text[i] === '\r' || text[i] === '#') return end
    const indent = i - start
    if (this.#blockScalarIndent >= 0) {
      if (indent > this.#blockScalarIndent) return end
      this.#blockScalarIndent = -1
    }
    if (this.#flow === 0) {
      while (this.#blocks.length > 0 && this.#blocks.at(-1)! > indent) this.#blocks.pop()
      this.#open(indent)
      // Compact nesting: every `- `, `? ` or `key: ` on the line opens a level at its column.
      for (;;) {
        const c = text[i]
        if ((c === '-' || c === '?' || c === ':') && (i + 1 === end || text[i + 1] === ' ' || text[i + 1] === '\r')) {
          i++
          while (i < end && text[i] === ' ') i++
          if (i < end && text[i] !== '#' && text[i] !== '\r') this.#open(i - start)
          continue
        }
        break
      }
    }
    return this.#scanRest(i, end, indent, start)
  }

  /** A block collection at `column`, unless the innermost one is already there. */
  #open(column: number): void {
    if (this.#blocks.at(-1) === column) return
    this.#blocks.push(column)
    this.#check()
  }

  /**
   * Flow brackets, quoted scalars, comments, `key: value` and block scalar headers from `i` to the line's
   * end (a later line's when a quoted scalar spans lines); answers that end.
   */
  #scanRest(i: number, end: number, indent: number, lineStart: number): number {
    const text = this.#text
    let previous = ' '
    // Where a node may start: the line's first token, after `: `, and inside flow collections after
    // `[`, `{` and `,`. Only there does a quote open a quoted scalar, a bracket a flow collection, or
    // `|`/`>` a block scalar; elsewhere they are characters of a plain scalar (`it's`, `${x}`, `a [b`).
    let nodeStart = true
    for (; i < end; i++) {
      const c = text[i]!
      if (c === ' ' || c === '\t') {
        previous = c
        continue
      }
      if (c === '#' && (previous === ' ' || previous === '\t')) return end
      const startsNode = nodeStart
      nodeStart = false
      if ((c === '"' || c === "'") && startsNode) {
        i = this.#skipQuoted(i, c)
        if (i >= end) {
          if (i >= text.length) return text.length
          lineStart = text.lastIndexOf('\n', i) + 1
          end = text.indexOf('\n', i)
          if (end === -1) end = text.length
        }
        previous = c
        continue
      }
      if ((c === '[' || c === '{') && (startsNode || this.#flow > 0)) {
        this.#flow++
        this.#check()
        nodeStart = true
      } else if ((c === ']' || c === '}') && this.#flow > 0) this.#flow--
      else if (c === ',' && this.#flow > 0) nodeStart = true
      else if (c === ':' && (i + 1 === end || text[i + 1] === ' ' || text[i + 1] === '\r' || (this.#flow > 0 && (previous === '"' || previous === "'" || /[,[\]{}]/.test(text[i + 1]!))))) {
        // In flow collections a value may follow a quoted key with no space (`{"a":"b"}`).
        nodeStart = true
        if (this.#flow === 0) {
          // `key: value` on one line: the value after it sits one level down.
          let j = i + 1
          while (j < end && text[j] === ' ') j++
          if (j < end && text[j] !== '#' && text[j] !== '\r') this.#open(j - lineStart)
        }
      } else if ((c === '|' || c === '>') && this.#flow === 0 && startsNode && isBlockScalarHeader(text, i + 1, end)) {
        this.#blockScalarIndent = indent
        return end
      }
      previous = c
    }
    return end
  }

  /** The index of the quote closing the scalar opened at `open` (the text's end when unclosed). */
  #skipQuoted(open: number, quote: string): number {
    const text = this.#text
    for (let i = open + 1; i < text.length; i++) {
      const c = text[i]
      if (c === '\n') this.#line++
      else if (quote === '"' && c === '\\') i++
      else if (c === quote) {
        if (quote === "'" && text[i + 1] === "'") i++
        else return i
      }
    }
    return text.length
  }
}

/** Whether the rest of a line after `|` or `>` is a block scalar header: indicators, then nothing or a comment. */
function isBlockScalarHeader(text: string, i: number, end: number): boolean {
  while (i < end && /[-+0-9]/.test(text[i]!)) i++
  const indicatorsEnd = i
  while (i < end && (text[i] === ' ' || text[i] === '\t')) i++
  return i === end || text[i] === '\r' || (text[i] === '#' && i > indicatorsEnd)
}
