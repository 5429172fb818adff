/** Method + path-pattern routing for the registry's fixed route tables (`:param` matches one segment). */

export interface RouteMatch<Operation extends string> {
  operation: Operation
  params: Record<string, string>
}

interface CompiledRoute<Operation extends string> {
  method: string
  /** The row's pattern as written (`/api/v2/organizations/:org/…`), for the OpenAPI document. */
  pattern: string
  regex: RegExp
  names: string[]
  operation: Operation
}

export type RouteTable<Operation extends string> = CompiledRoute<Operation>[]

/** Compiles `[method, pattern, operation]` rows once; earlier rows win. */
export function compileRoutes<Operation extends string>(rows: readonly (readonly [string, string, Operation])[]): RouteTable<Operation> {
  return rows.map(([method, pattern, operation]) => {
    const names: string[] = []
    const source = pattern
      .split('/')
      .map((segment) => {
        if (!segment.startsWith(':')) return segment.replace(/[.+?^${}()|[\]\\*]/g, '\\$&')
        names.push(segment.slice(1))
        return '([^/]+)'
      })
      .join('/')
    return { method, pattern, regex: new RegExp(`^${source}/?$`), names, operation }
  })
}

/** The route for a request, with its parameters percent-decoded; undefined when none matches. */
export function matchRoute<Operation extends string>(
  table: RouteTable<Operation>,
  method: string,
  path: string,
): RouteMatch<Operation> | undefined {
  for (const route of table) {
    if (route.method !== method) continue
    const m = route.regex.exec(path)
    if (!m) continue
    const params: Record<string, string> = {}
    try {
      route.names.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1]!)))
    } catch {
      return undefined
    }
    return { operation: route.operation, params }
  }
  return undefined
}
