import type { RequestContext } from '../../core/glossary.ts'
import { goJsonText, WrittenJson } from '../../core/go/go-json-text.ts'
import { LightResponse } from '../../core/light-response.ts'
import { setOwnField } from '../../core/own-field.ts'

/** The auth service's response envelope (docs/reference/cloud-auth.md §1.5). */
export interface AuthEnvelopeInput {
  data?: Record<string, unknown> | WrittenJson | null
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
      for (const key of keys.sort()) setOwnField(out, key, data[key])
      return out
    }
  }
  return data
}

/**
 * A 2xx answer in the envelope: `data` keys sorted as Go marshals a map. The text is put together field by
 * field in the order of the real service's struct, so that data already written (`WrittenJson`) goes in as
 * it is; top-level keys go first, and one that names an envelope field is left to the envelope.
 */
export function authResponse(context: RequestContext, input: AuthEnvelopeInput): Response {
  const { data, warnings, auth, topLevel } = input
  const text =
    `{${topLevel ? topLevelText(topLevel) : ''}"request_id":${goJsonText(context.emulator.random.uuid())},"lease_id":"","renewable":false,"lease_duration":0` +
    `,"data":${data instanceof WrittenJson ? data.text : data ? goJsonText(sortedKeys(data)) : 'null'},"wrap_info":null` +
    `,"warnings":${warnings && warnings.length > 0 ? goJsonText(warnings) : 'null'},"auth":${auth ? goJsonText(auth) : 'null'}` +
    `,"mount_type":${goJsonText(input.rendered ? '' : (input.mountType ?? 'aws'))}}`
  return new LightResponse(text + (input.rendered ? '' : '\n'), { status: input.status ?? 200, headers: JSON_HEADERS })
}

const ENVELOPE_FIELDS = new Set(['request_id', 'lease_id', 'renewable', 'lease_duration', 'data', 'wrap_info', 'warnings', 'auth', 'mount_type'])

/** The top-level keys as the start of the envelope's object text, each followed by a comma. */
function topLevelText(topLevel: Record<string, unknown>): string {
  const own: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(sortedKeys(topLevel))) if (!ENVELOPE_FIELDS.has(key)) setOwnField(own, key, value)
  const text = goJsonText(own)
  return text === '{}' ? '' : `${text.slice(1, -1)},`
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
