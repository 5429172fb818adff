import { decodeSegment } from '../decode-segment.ts'
import { editDistance } from '../did-you-mean.ts'
import { compilePathPattern, type PathPattern, type PathPatternOptions } from '../path-pattern.ts'
import type { RouteMatch, RouteRow } from './route-row.ts'

export interface RouteTableOptions extends PathPatternOptions {
  /** Parameters percent-decoded; a path with a broken escape in one matches nothing (404). Raw otherwise. */
  decode?: boolean
}

/**
 * The one route matcher: rows in order, the first whose method and path match wins. A path some row
 * matches with another method is a 405, else a 404. A path is tried only against the rows whose first
 * segment can match its own (a literal one equal to it, or a `:name` or `*`), in order, each a cheap
 * literal-prefix check and then a segment walk; a match allocates its parameters and nothing else.
 */
export class RouteTable<Row extends RouteRow> {
  readonly rows: readonly Row[]
  readonly #patterns: PathPattern[]
  readonly #decode: boolean
  /** The rows a path may match, by its first segment; rows of any first segment for a segment no row names. */
  readonly #byFirstSegment: Map<string, readonly number[]>
  readonly #anyFirstSegment: readonly number[]

  /** Throws PatternShapeError (core/path-pattern) for a row the options do not fit. */
  constructor(rows: readonly Row[], options: RouteTableOptions = {}) {
    this.rows = rows
    this.#patterns = rows.map((row) => compilePathPattern(row.path, options))
    this.#decode = options.decode ?? false
    const firsts = rows.map((row) => literalFirstSegment(row.path))
    const all = rows.map((_, index) => index)
    this.#anyFirstSegment = all.filter((index) => firsts[index] === undefined)
    this.#byFirstSegment = new Map(
      [...new Set(firsts)].flatMap((first) => (first === undefined ? [] : [[first, all.filter((index) => firsts[index] === first || firsts[index] === undefined)]])),
    )
  }

  /** The first row for `method path`, or 404 (no row has the path) or 405 (rows have it, for other methods). */
  match(method: string, path: string): RouteMatch<Row> | 404 | 405 {
    let pathKnown = false
    const slash = path.indexOf('/')
    const candidates = this.#byFirstSegment.get(slash === -1 ? path : path.slice(0, slash)) ?? this.#anyFirstSegment
    for (const i of candidates) {
      const row = this.rows[i]!
      if (row.method !== undefined && row.method !== method) {
        pathKnown ||= this.#patterns[i]!.test(path)
        continue
      }
      const params = this.#patterns[i]!.match(path)
      if (params === undefined) continue
      const rest = row.path.endsWith('*') ? path.slice(row.path.length - 1) : ''
      if (row.rest !== undefined) params[row.rest] = rest
      if (this.#decode) {
        for (const name in params) {
          const decoded = decodeSegment(params[name]!)
          if (decoded === undefined) return 404
          params[name] = decoded
        }
      }
      return { row, params, rest }
    }
    return pathKnown ? 405 : 404
  }

  /**
   * The routes whose paths come nearest `path`, as `METHOD path` (or the path alone for a row of any
   * method), nearest first: WireMock's near misses for an explanation. A `:name` segment fits any, a
   * literal costs its edit distance over its length, a missing or extra segment costs one.
   */
  nearest(path: string, count = 3, prefix = ''): string[] {
    const segments = path.split('/')
    const scored = this.rows.map((row) => ({ row, cost: pathCost(segments, row.path.split('/')) }))
    scored.sort((a, b) => a.cost - b.cost)
    const out: string[] = []
    for (const { row } of scored) {
      const text = `${row.method === undefined ? '' : `${row.method} `}${prefix}${row.path}`
      if (!out.includes(text)) out.push(text)
      if (out.length === count) break
    }
    return out
  }
}

/**
 * A pattern's first segment when it is literal text, which a matching path's first segment equals; undefined
 * for a `:name`, a `*` or a full URL, which paths of any first segment may match.
 */
function literalFirstSegment(pattern: string): string | undefined {
  if (/^[a-z]+:\/\//i.test(pattern)) return undefined
  const slash = pattern.indexOf('/')
  const first = slash === -1 ? pattern : pattern.slice(0, slash)
  return /\*|:[A-Za-z_]/.test(first) ? undefined : first
}

function pathCost(segments: readonly string[], pattern: readonly string[]): number {
  const rest = pattern.at(-1) === '*'
  const fixed = rest ? pattern.length - 1 : pattern.length
  let cost = 0
  for (let i = 0; i < Math.min(segments.length, fixed); i++) {
    const want = pattern[i]!
    const seen = segments[i]!
    if (want.startsWith(':') ? seen === '' : want !== seen) cost += want.startsWith(':') ? 1 : Math.min(1, editDistance(seen, want) / Math.max(want.length, 1))
  }
  if (segments.length < fixed) cost += fixed - segments.length
  else if (!rest) cost += segments.length - fixed
  return cost
}
