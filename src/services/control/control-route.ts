import type { RequestContext } from '../../core/glossary.ts'
import { compilePathPattern, type PathPattern } from '../../core/path-pattern.ts'
import type { BodySpec } from './control-body.ts'

/**
 * Who may call a control route. `open`: a read that holds no secret, answered beyond loopback without a
 * token (the server's guard). `control`: on loopback anyone, beyond it a management token (the guard).
 * `management`: a management token everywhere (the route refuses with 403).
 */
export type ControlAccess = 'open' | 'control' | 'management'

/** One control call, as a route's handler sees it: the body already read by the route's BodySpec. */
export interface ControlCall {
  request: Request
  context: RequestContext
  url: URL
  /** `:name` segments, raw (not percent-decoded). */
  params: Record<string, string>
  /** What a trailing `*` matched, raw. */
  rest: string
  body: unknown
  /** Whether the caller holds a management token (in process: always). */
  management: boolean
}

/** A handler's answer: a status with a JSON body (none for 204), or a Response it shaped itself. */
export type ControlAnswer = { status: number; body?: unknown } | Response

export interface ControlRoute {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE'
  /** A path pattern (`core/path-pattern.ts`): `:name` one segment, a trailing `*` the rest. */
  path: string
  access: ControlAccess
  /** How the body is read; absent when the route reads none. */
  body?: BodySpec
  run(call: ControlCall): ControlAnswer | Promise<ControlAnswer>
}

export interface CompiledRoute extends ControlRoute {
  matcher: PathPattern
  /** The literal text before a trailing `*`, for `rest`. */
  prefix?: string
}

/** Compiles a table of routes once. */
export function compileRoutes(routes: readonly ControlRoute[]): CompiledRoute[] {
  return routes.map((route) => ({
    ...route,
    matcher: compilePathPattern(route.path),
    ...(route.path.endsWith('*') && { prefix: route.path.slice(0, -1) }),
  }))
}

export const ok = (body: unknown): ControlAnswer => ({ status: 200, body })
export const created = (body: unknown): ControlAnswer => ({ status: 201, body })
export const noContent: ControlAnswer = { status: 204 }
export const refused = (status: number, message: string): ControlAnswer => ({ status, body: { errors: [message] } })
