import { jsonResponse } from '../http.ts'

/**
 * What one service owns of doppel's URLs (its `urls.ts`, as moto's `urls.py`): the emulator's router,
 * the server's guard, the journal and the MSW handlers ask these, and nothing else lists a service's
 * paths or hosts.
 */
export interface ServiceUrls<Name extends string = string> {
  /** The service's name, as the journal keeps it for every request the service owns. */
  readonly name: Name
  /** Whether a path on doppel's own origins is the service's: its API and the control routes that set it up. */
  ownsPath(path: string): boolean
  /** Whether one of its paths is a set-up route (answered by the control API, journaled under the service). */
  isSetupPath?(path: string): boolean
  /** The service's error envelope for a refusal made before it answers (the server's guard); `path` may carry a query. */
  refusal(path: string, status: number, message: string): Response
}

/** `{"errors":["…"]}`: the envelope of the auth method, the control API and the registry protocol's reads. */
export function errorsEnvelope(status: number, message: string): Response {
  return jsonResponse(status, { errors: [message] })
}
