import { errorKind } from '../../../core/doppel-error.ts'
/**
 * The JSONPath subset captures use: `$` (the whole body), `.name`, `['any name']`, `[0]` and `[-1]`
 * (from the end). No wildcards, filters or recursive descent: a capture names exactly one value.
 */
export class JsonPathError extends errorKind('JsonPathError', 'DOPPEL_INVALID_JSON_PATH') {}

export type JsonPath = (string | number)[]

/** Parses `$.a.b[0]` into `['a', 'b', 0]`. Throws JsonPathError with the offending position. */
export function parseJsonPath(text: string): JsonPath {
  if (!text.startsWith('$')) throw new JsonPathError(`invalid JSONPath ${JSON.stringify(text)}: must start with "$"`)
  const segments: JsonPath = []
  let i = 1
  while (i < text.length) {
    const rest = text.slice(i)
    let m: RegExpExecArray | null
    if ((m = /^\.([A-Za-z0-9_$-]+)/.exec(rest))) segments.push(m[1]!)
    else if ((m = /^\[(-?\d+)\]/.exec(rest))) segments.push(Number(m[1]))
    else if ((m = /^\['((?:[^'\\]|\\.)*)'\]/.exec(rest)) || (m = /^\["((?:[^"\\]|\\.)*)"\]/.exec(rest))) segments.push(m[1]!.replace(/\\(.)/g, '$1'))
    else throw new JsonPathError(`invalid JSONPath ${JSON.stringify(text)}: unexpected ${JSON.stringify(rest[0])} at position ${i}`)
    i += m[0].length
  }
  return segments
}

/** The value at `path`, or `found: false` when any segment is missing. */
export function queryJsonPath(value: unknown, path: JsonPath): { found: boolean; value?: unknown } {
  let node = value
  for (const segment of path) {
    if (typeof segment === 'number') {
      if (!Array.isArray(node)) return { found: false }
      const index = segment < 0 ? node.length + segment : segment
      if (index < 0 || index >= node.length) return { found: false }
      node = node[index]
    } else {
      if (typeof node !== 'object' || node === null || Array.isArray(node) || !Object.hasOwn(node, segment)) return { found: false }
      node = (node as Record<string, unknown>)[segment]
    }
  }
  return { found: true, value: node }
}

/** `$.a['b c'][0]` for reporting a position inside a body. */
export function formatJsonPath(path: JsonPath): string {
  return '$' + path.map((s) => (typeof s === 'number' ? `[${s}]` : /^[A-Za-z_][A-Za-z0-9_$-]*$/.test(s) ? `.${s}` : `['${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`)).join('')
}
