import { errorKind } from '../../core/doppel-error.ts'
/**
 * An OpenAPI path template from a route's anchored RegExp (`^role\/(?<role>…)\/tag$` → `role/{role}/tag`),
 * so the document is read off the same patterns the router matches with.
 */
export interface PathTemplate {
  /** `role/{role}/tag`; a trailing `\/?` (list paths) becomes a trailing `/`, as Vault documents lists. */
  template: string
  params: string[]
}

export class PatternShapeError extends errorKind('PatternShapeError', 'DOPPEL_ROUTE_PATTERN_SHAPE') {}

export function regexTemplate(pattern: RegExp): PathTemplate {
  const source = pattern.source
  if (!source.startsWith('^') || !source.endsWith('$')) throw new PatternShapeError(`route pattern ${source} is not anchored`)
  const body = source.slice(1, -1)
  const params: string[] = []
  let template = ''
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!
    if (body.startsWith('(?<', i)) {
      const close = body.indexOf('>', i)
      params.push(body.slice(i + 3, close))
      template += `{${body.slice(i + 3, close)}}`
      i = groupEnd(body, i)
    } else if (char === '\\') {
      const next = body[i + 1]!
      if (next === '/' && body[i + 2] === '?' && i + 3 === body.length) {
        template += '/'
        i += 2
      } else if ('/.-'.includes(next)) {
        template += next
        i += 1
      } else throw new PatternShapeError(`route pattern ${source} has a class outside a named group`)
    } else if ('()[]*+?|{}'.includes(char)) {
      throw new PatternShapeError(`route pattern ${source} has "${char}" outside a named group`)
    } else template += char
  }
  return { template, params }
}

/** The index of the `)` that closes the group opening at `start`. */
function groupEnd(source: string, start: number): number {
  let depth = 0
  let inClass = false
  for (let i = start; i < source.length; i++) {
    const char = source[i]
    if (char === '\\') i++
    else if (inClass) inClass = char !== ']'
    else if (char === '[') inClass = true
    else if (char === '(') depth++
    else if (char === ')' && --depth === 0) return i
  }
  throw new PatternShapeError(`route pattern ${source} has an unclosed group`)
}
