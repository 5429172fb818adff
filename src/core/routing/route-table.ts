import { decodeSegment } from '../decode-segment.ts'
import { compilePathPattern, type PathPattern, type PathPatternOptions } from '../path-pattern.ts'
import type { RouteMatch, RouteRow } from './route-row.ts'

export interface RouteTableOptions extends PathPatternOptions {
  /** Parameters percent-decoded; a path with a broken escape in one matches nothing (404). Raw otherwise. */
  decode?: boolean
}

/**
 * The one route matcher: rows in order, the first whose method and path match wins. A path some row
 * matches with another method is a 405, else a 404. Linear over the rows, each a cheap literal-prefix
 * check and then a segment walk; a match allocates its parameters and nothing else.
 */
export class RouteTable<Row extends RouteRow> {
  readonly rows: readonly Row[]
  readonly #patterns: PathPattern[]
  readonly #decode: boolean

  /** Throws PatternShapeError (core/path-pattern) for a row the options do not fit. */
  constructor(rows: readonly Row[], options: RouteTableOptions = {}) {
    this.rows = rows
    this.#patterns = rows.map((row) => compilePathPattern(row.path, options))
    this.#decode = options.decode ?? false
  }

  /** The first row for `method path`, or 404 (no row has the path) or 405 (rows have it, for other methods). */
  match(method: string, path: string): RouteMatch<Row> | 404 | 405 {
    let pathKnown = false
    for (let i = 0; i < this.rows.length; i++) {
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
}
