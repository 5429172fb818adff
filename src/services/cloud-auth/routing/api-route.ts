/**
 * One row of the auth method's table of every path it answers under `/v1/` (`api-routes.ts`): a route
 * row, which token the service's edge checks before it runs, and what the OpenAPI document says of it.
 */
import type { RequestContext } from '../../../core/glossary.ts'
import type { Profile } from '../../../core/profile.ts'
import type { RouteRow } from '../../../core/routing/index.ts'
import type { FieldSchema } from '../fields/index.ts'
import type { HttpOperation } from './http-operation.ts'

/**
 * The token a route needs: `root` is checked at the edge before the route runs (403 otherwise); `own`
 * routes read the token they are about (the token store's self routes); `none` answers anyone (login,
 * Vault's own document).
 */
export type RouteToken = 'root' | 'own' | 'none'

/** What the OpenAPI document says of a route, by lower-case HTTP method. */
type RouteDescription = Readonly<
  Record<
    string,
    {
      summary: string
      /** The JSON body's fields, where it reads one. */
      body?: FieldSchema
      /**
       * Its answers by status: a 2xx other than 204 carries the auth envelope, a 4xx the error envelope.
       * A route that needs a token also answers the usual 400, 403 and 405, which the document adds.
       */
      answers: Readonly<Record<string, string>>
      /** Its 2xx body is a JSON object of its own, not the auth envelope. */
      bare?: true
      /** Its 2xx answers have no body (a 202 too). */
      empty?: true
    }
  >
>

interface RouteBase extends RouteRow {
  readonly token: RouteToken
  /** Answered only where the profile says so (elsewhere the path is one no row has). */
  readonly profile?: (profile: Profile) => boolean
  /** What the OpenAPI document says of it; a row without one is not a path of the document (a refusal's row). */
  readonly describe?: RouteDescription
}

/** One request as a route sees it; `path` is relative to the table (`/v1/`, or the mount), percent-decoded. */
interface RouteCall {
  request: Request
  context: RequestContext
  url: URL
  path: string
  params: Record<string, string>
  /** What a trailing `*` matched. */
  rest: string
}

/** A route that reads the request itself: nothing of it is read before it runs. */
export interface RequestRoute extends RouteBase {
  readonly reads: 'request'
  run(call: RouteCall): Response | Promise<Response>
}

export interface OperationCall extends RouteCall, HttpOperation {}

/** A call on a path under one of the auth method's mounts. */
export interface MountCall extends OperationCall {
  /** The mount, without slashes at either end. */
  mount: string
}

/** A route that runs on the request's operation and data, read by the HTTP layer before the token check. */
export interface OperationRoute<Call extends OperationCall = OperationCall> extends RouteBase {
  readonly reads: 'operation'
  /** A refusal Vault's core makes before the token check, or undefined. */
  readonly beforeToken?: (call: Call) => Response | undefined
  run(call: Call): Response | Promise<Response>
}

/** A row of the table under `/v1/`. */
export type ApiRoute = RequestRoute | OperationRoute
