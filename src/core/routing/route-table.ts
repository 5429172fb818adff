import { decodeSegment } from '../decode-segment.ts'
import { editDistance } from '../did-you-mean.ts'
import { compilePathPattern, type PathPattern, type PathPatternOptions } from '../path-pattern.ts'
import type { RouteMatch, RouteRow } from './route-row.ts'

export interface RouteTableOptions extends PathPatternOptions {
  /** Parameters percent-decoded; a path with a broken escape in one matches nothing (404). Raw otherwise. */
  decode?: boolean
}

/**
 * The rows a path may match, in order, by its second segment, for paths of one first segment (or of any
 * first segment no row names).
 */
interface Candidates {
  /** By a second segment some row names as literal text. */
  bySecond: Map<string, readonly number[]>
  /** For any other second segment, or none. */
  other: readonly number[]
}

/**
 * The one route matcher: rows in order, the first whose method and path match wins. A path some row
 * matches with another method is a 405, else a 404. A path is tried only against the rows whose first two
 * segments can match its own (literal ones equal to them, or a `:name` or `*`), in order, each a cheap
 * literal-prefix check and then a segment walk; a match allocates its parameters and nothing else.
 */
export class RouteTable<Row extends RouteRow> {
  readonly rows: readonly Row[]
  readonly #patterns: PathPattern[]
  readonly #decode: boolean
  /** The rows a path may match, by its first segment; `#otherFirst` for a first segment no row names. */
  readonly #byFirst: Map<string, Candidates>
  readonly #otherFirst: Candidates

  /** Throws PatternShapeError (core/path-pattern) for a row the options do not fit. */
  constructor(rows: readonly Row[], options: RouteTableOptions = {}) {
    this.rows = rows
    this.#patterns = rows.map((row) => compilePathPattern(row.path, options))
    this.#decode = options.decode ?? false
    const leads = rows.map((row) => literalLead(row.path))
    // A row fits a segment it names, or any when it names none; `undefined` stands for one no row names.
    const fits = (literal: string | undefined, segment: string | undefined) => literal === undefined || literal === segment
    const candidates = (first: string | undefined): Candidates => {
      const rowsOf = leads.flatMap(([k0], index) => (fits(k0, first) ? [index] : []))
      const seconds = new Set(rowsOf.flatMap((index) => leads[index]![1] ?? []))
      return {
        bySecond: new Map([...seconds].map((second) => [second, rowsOf.filter((index) => fits(leads[index]![1], second))])),
        other: rowsOf.filter((index) => leads[index]![1] === undefined),
      }
    }
    this.#otherFirst = candidates(undefined)
    this.#byFirst = new Map([...new Set(leads.flatMap(([first]) => first ?? []))].map((first) => [first, candidates(first)]))
  }

  /** The first row for `method path`, or 404 (no row has the path) or 405 (rows have it, for other methods). */
  match(method: string, path: string): RouteMatch<Row> | 404 | 405 {
    let pathKnown = false
    const slash = path.indexOf('/')
    const first = this.#byFirst.get(slash === -1 ? path : path.slice(0, slash)) ?? this.#otherFirst
    let candidates = first.other
    if (slash !== -1 && first.bySecond.size > 0) {
      const end = path.indexOf('/', slash + 1)
      candidates = first.bySecond.get(end === -1 ? path.slice(slash + 1) : path.slice(slash + 1, end)) ?? first.other
    }
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
 * A pattern's first two segments where they are literal text, which a matching path's first two segments
 * equal; undefined for a `:name`, a `*`, a full URL, a second segment after one that is not literal (a
 * `*` there may match slashes) and an empty or missing second segment (a trailing slash, which may be
 * optional).
 */
function literalLead(pattern: string): [first: string | undefined, second: string | undefined] {
  if (/^[a-z]+:\/\//i.test(pattern)) return [undefined, undefined]
  const [first, second] = pattern.split('/', 2) as [string, string | undefined]
  const literal = (segment: string) => !/\*|:[A-Za-z_]/.test(segment)
  if (!literal(first)) return [undefined, undefined]
  return [first, second !== undefined && second !== '' && literal(second) ? second : undefined]
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
