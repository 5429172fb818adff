/**
 * One row of a route table, as every service and the control API declare their routes: a method (or any
 * method) and a path pattern (`core/path-pattern.ts`: literal segments, `:name` one segment, a trailing
 * `*` the rest). What the row does is the table owner's: an operation name, an endpoint, a handler.
 */
export interface RouteRow {
  /** The HTTP method; absent for any method (the auth method's endpoints dispatch on the operation). */
  readonly method?: string
  readonly path: string
  /** The parameter name a trailing `*` is captured under (and described by, in the OpenAPI document). */
  readonly rest?: string
}

/** A row that matched, with its parameters (raw or decoded, as the table says) and what a trailing `*` matched. */
export interface RouteMatch<Row extends RouteRow> {
  row: Row
  params: Record<string, string>
  /** What a trailing `*` matched, raw; empty for a row without one. */
  rest: string
}

/** The OpenAPI path template of a row (`:name` → `{name}`, a trailing `*` → `{rest}`) and its parameters in order. */
export function routeTemplate(row: RouteRow): { template: string; params: string[] } {
  const params: string[] = []
  const template = row.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)|\*$/g, (_whole, name: string | undefined) => {
    const param = name ?? row.rest ?? 'rest'
    params.push(param)
    return `{${param}}`
  })
  return { template, params }
}

/**
 * Rows under a prefix (as hono's `route()` and moto's url bases): each row's path with `prefix` in front,
 * everything else as it was. A prefix is written once, where its owner declares it.
 */
export function mount<Row extends RouteRow>(prefix: string, rows: readonly Row[]): Row[] {
  return rows.map((row) => ({ ...row, path: prefix + row.path }))
}
