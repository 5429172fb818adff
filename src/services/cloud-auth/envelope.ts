import type { RequestContext } from '../../core/glossary.ts'
import { goJsonText } from '../../core/go/go-json-text.ts'
import { LightResponse } from '../../core/light-response.ts'

/** The auth service's response envelope (docs/reference/cloud-auth.md §1.5). */
export interface AuthEnvelopeInput {
  data?: Record<string, unknown> | null
  warnings?: string[]
  auth?: Record<string, unknown> | null
  status?: number
  /** `aws` unless said; `sys/` paths answer `system`. */
  mountType?: string
  /** Extra top-level keys (`GET sys/auth` repeats its data there, as the real service does). */
  topLevel?: Record<string, unknown>
  /**
   * A body the method renders itself (the real service's `RespondWithStatusCode`, the tidy endpoints'
   * 202): marshaled before the router sets the mount type, so `mount_type` is empty, and written as it is,
   * without the trailing newline of the HTTP layer's encoder.
   */
  rendered?: boolean
}

const JSON_HEADERS = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }
const RETRY_HEADERS = { ...JSON_HEADERS, 'Retry-After': '1' }

/**
 * Go marshals maps with their keys sorted; `data` is a map in the real service. Handlers build their
 * data in key order, so checking is all most answers cost; only out-of-order data is re-built sorted.
 */
export function sortedKeys(data: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(data)
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1]! > keys[i]!) {
      const out: Record<string, unknown> = {}
      for (const key of keys.sort()) out[key] = data[key]
      return out
    }
  }
  return data
}

/** A 2xx answer in the envelope: `data` keys sorted as Go marshals a map. */
export function authResponse(context: RequestContext, input: AuthEnvelopeInput): Response {
  const body = {
    ...(input.topLevel && sortedKeys(input.topLevel)),
    request_id: context.emulator.random.uuid(),
    lease_id: '',
    renewable: false,
    lease_duration: 0,
    data: input.data ? sortedKeys(input.data) : null,
    wrap_info: null,
    warnings: input.warnings && input.warnings.length > 0 ? input.warnings : null,
    auth: input.auth ?? null,
    mount_type: input.rendered ? '' : (input.mountType ?? 'aws'),
  }
  return new LightResponse(goJsonText(body) + (input.rendered ? '' : '\n'), { status: input.status ?? 200, headers: JSON_HEADERS })
}

/** 204 with an empty body, as every write without warnings answers. */
export function noContent(): Response {
  return new LightResponse(null, { status: 204, headers: JSON_HEADERS })
}

/** 202 with an empty body: work the real service goes on with after answering (`RespondWithStatusCode` of nothing). */
export function acceptedEmpty(): Response {
  return new LightResponse(null, { status: 202, headers: JSON_HEADERS })
}

/** `{"errors":[...]}` with the given status. */
export function authError(status: number, ...messages: string[]): Response {
  return errorsResponse(status, messages, JSON_HEADERS)
}

function errorsResponse(status: number, messages: string[], headers: Record<string, string>): Response {
  return new LightResponse(goJsonText({ errors: messages }) + '\n', { status, headers })
}

/** Go's multierror text, used on authenticated paths for unsupported path/operation and ACL denials. */
export function multiError(message: string): string {
  return `1 error occurred:\n\t* ${message}\n\n`
}

const STATUS_TEXT: Record<number, string> = {
  429: 'rate limit quota exceeded',
  500: 'internal error',
  502: 'bad gateway',
  503: 'Vault is sealed',
  504: 'gateway timeout',
}

/** The body an injected fault answers with on the auth service. */
export function authFaultResponse(status: number): Response {
  const message = STATUS_TEXT[status] ?? `injected fault ${status}`
  const text = status >= 500 && status !== 503 ? multiError(message) : message
  return errorsResponse(status, [text], status === 429 ? RETRY_HEADERS : JSON_HEADERS)
}
