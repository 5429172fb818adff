/**
 * The control API's route row: what every owner of `/_doppel/…` routes declares (the control API's own,
 * each service's set-up, the features'), and the control service routes by.
 */
import type { RequestContext } from '../glossary.ts'
import type { RouteRow } from './route-row.ts'

/**
 * The control API's body limits, by what a body carries. Every route names one; the guard, the router and
 * the in-process calls all read a body through the control service's one body reader.
 */
export const CONTROL_BODY_LIMITS = {
  /** Set-up made of small objects (a service's instances, principals, documents). */
  small: 1024 * 1024,
  /** Settings, faults, fixtures and larger set-up. */
  control: 8 * 1024 * 1024,
  /** A whole state: big enough for 100k-record states, read whole before anything changes. */
  snapshot: 256 * 1024 * 1024,
} as const

/** What a route reads from its body. */
export interface BodySpec {
  /**
   * `object`: a JSON object (empty means `{}` unless `required`); `json`: any JSON value; `text`: the text as
   * is; `bytes`: the bytes as they came, for a route that parses a large body itself (`parseControlJson`'s
   * answers for what is not JSON).
   */
  kind: 'object' | 'json' | 'text' | 'bytes'
  limit: keyof typeof CONTROL_BODY_LIMITS
  /** An empty body is refused instead of read as `{}`. */
  required?: boolean
  /** An `object` body's fields: any other is refused (400), so that a misspelt one does not go unnoticed. */
  fields?: readonly string[]
  /** Media types a write may declare (the guard's check); JSON unless given. */
  types?: readonly string[]
  /** What the messages call the body: `request` unless given. */
  names?: string
}

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

export interface ControlRoute extends RouteRow {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE'
  /** A path pattern (`core/path-pattern.ts`): `:name` one segment, a trailing `*` the rest. */
  path: string
  access: ControlAccess
  /** How the body is read; absent when the route reads none. */
  body?: BodySpec
  /**
   * What the route holds from before its body is read until it has answered: the release, or the refusal
   * when it cannot have it (answered without reading the body).
   */
  claim?(context: RequestContext): (() => void) | ControlAnswer
  run(call: ControlCall): ControlAnswer | Promise<ControlAnswer>
}

export const ok = (body: unknown): ControlAnswer => ({ status: 200, body })
export const created = (body: unknown): ControlAnswer => ({ status: 201, body })
export const noContentAnswer: ControlAnswer = { status: 204 }
export const refused = (status: number, message: string): ControlAnswer => ({ status, body: { errors: [message] } })

/** A route that acts and answers 204. */
export const act =
  (change: (call: ControlCall) => unknown) =>
  async (call: ControlCall): Promise<ControlAnswer> => {
    await change(call)
    return noContentAnswer
  }
