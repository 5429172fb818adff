/** Method + path-pattern routing for the registry's fixed route tables (`:param` matches one segment). */
import { compilePathPattern, type PathPattern } from '../../../core/path-pattern.ts'

export interface RouteMatch<Operation extends string> {
  operation: Operation
  params: Record<string, string>
}

interface CompiledRoute<Operation extends string> {
  method: string
  /** The row's pattern as written (`/api/v2/organizations/:org/…`), for the OpenAPI document. */
  pattern: string
  matcher: PathPattern
  operation: Operation
}

export type RouteTable<Operation extends string> = CompiledRoute<Operation>[]

/** Compiles `[method, pattern, operation]` rows once; earlier rows win. */
export function compileRoutes<Operation extends string>(rows: readonly (readonly [string, string, Operation])[]): RouteTable<Operation> {
  return rows.map(([method, pattern, operation]) => ({ method, pattern, matcher: compilePathPattern(pattern), operation }))
}

/** The route for a request, with its parameters percent-decoded; undefined when none matches. */
export function matchRoute<Operation extends string>(
  table: RouteTable<Operation>,
  method: string,
  path: string,
): RouteMatch<Operation> | undefined {
  for (const route of table) {
    if (route.method !== method) continue
    const raw = route.matcher.match(path)
    if (!raw) continue
    const params: Record<string, string> = {}
    try {
      for (const [name, value] of Object.entries(raw)) params[name] = decodeURIComponent(value)
    } catch {
      return undefined
    }
    return { operation: route.operation, params }
  }
  return undefined
}
