import { describeValue } from '../../../core/describe-value.ts'
import { DoppelError, type DoppelErrorCode } from '../../../core/doppel-error.ts'
import type { Explanation } from '../../../core/explanation.ts'

/**
 * The registry's errors as values. Titles and texts come from docs/reference/registry.md §1.5 (string `status`,
 * lowercase titles, Rails-style `detail` on attribute errors); every route raises them from here.
 */
export class RegistryError extends DoppelError {
  override name = 'RegistryError'
  readonly status: number
  readonly title: string
  readonly detail: string | undefined
  readonly pointer: string | undefined

  constructor(code: DoppelErrorCode, status: number, title: string, detail?: string, pointer?: string) {
    super(code, `Failed to serve the registry request: ${status} ${title}${detail ? `: ${detail}` : ''}`)
    this.status = status
    this.title = title
    this.detail = detail
    this.pointer = pointer
  }
}

/** Rails-style validation messages, keyed by rule; `%s` is the humanised attribute name. */
const VALIDATION_MESSAGES = {
  blank: "%s can't be blank",
  inclusion: '%s is not included in the list',
  invalid: '%s is invalid',
  taken: '%s has already been taken',
  present: '%s must be blank',
  notString: '%s must be a string',
  notBoolean: '%s must be a boolean',
  notObject: '%s must be an object',
  notUrl: '%s is not a valid URL',
  tooLong: '%s is too long (maximum is 64 characters)',
  notJson: 'Request body is not a valid JSON:API document',
  oneOperation: '%s must hold exactly one of deprecation, revocation',
  notDeprecated: '%s cannot be Revoked: the version must be deprecated first',
  revoked: '%s cannot be Undeprecated while the version is revoked',
  unsupported: '%s are not supported by this emulator',
} as const

export type ValidationRule = keyof typeof VALIDATION_MESSAGES

/** What passes each rule, for the journal's explanation. */
const VALIDATION_EXPECTED: Partial<Record<ValidationRule, string>> = {
  blank: 'a value',
  notString: 'a string',
  notBoolean: 'true or false',
  notObject: 'an object',
  notUrl: 'an http or https URL, or ""',
  tooLong: 'at most 64 characters',
  notJson: 'a JSON:API document: a JSON object with data',
  present: 'no value',
}

/** `/data/attributes/deprecated-status` → `Deprecated status`. */
function humanise(pointer: string): string {
  const last = pointer.split('/').pop() || 'body'
  const words = last.replace(/[-_]/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** Every error the registry's JSON:API surfaces raise, built from the table above. */
export const registryErrors = {
  unauthorized: () => new RegistryError('DOPPEL_REGISTRY_UNAUTHORIZED', 401, 'unauthorized'),
  /** A 404; `why` says which lookup failed (the service's edge names the route when none is given). */
  notFound: (why?: Explanation) => {
    const error = new RegistryError('DOPPEL_REGISTRY_NOT_FOUND', 404, 'not found')
    return why ? error.explain(why) : error
  },
  forbidden: (detail: string) => new RegistryError('DOPPEL_REGISTRY_FORBIDDEN', 403, 'forbidden', detail),
  conflict: (detail: string) => new RegistryError('DOPPEL_REGISTRY_CONFLICT', 409, 'conflict', detail),
  stateTooLarge: (message: string) => new RegistryError('DOPPEL_STATE_TOO_LARGE', 413, 'request entity too large', message),
  tooLarge: (limit: number) => new RegistryError('DOPPEL_REGISTRY_BODY_TOO_LARGE', 413, 'request entity too large', `request body exceeds ${limit} bytes`),
  invalidContentType: () => new RegistryError('DOPPEL_REGISTRY_CONTENT_TYPE', 415, 'invalid content type', 'content-type must be application/vnd.api+json'),
  invalidArchive: (detail: string) =>
    new RegistryError('DOPPEL_REGISTRY_INVALID_ARCHIVE', 422, 'invalid archive', detail).explain({
      rule: 'module archive',
      seen: detail,
      expected: 'a gzipped tar of a module (at least one .tf file at its root)',
    }),
  /** A 422 `invalid attribute` pointing at the offending member; `seen` is the value refused. */
  invalidAttribute: (pointer: string, rule: ValidationRule, seen?: unknown) => {
    const expected = VALIDATION_EXPECTED[rule]
    return new RegistryError('DOPPEL_REGISTRY_INVALID_ATTRIBUTE', 422, 'invalid attribute', VALIDATION_MESSAGES[rule].replace('%s', humanise(pointer)), pointer).explain({
      rule: `${pointer}: ${rule}`,
      seen: describeValue(seen),
      ...(expected && { expected }),
    })
  },
}

/** Registry protocol (v1) error texts, `{"errors":["Not Found"]}` style (docs/reference/registry.md §2.1). */
export const REGISTRY_V1_ERRORS: Record<number, string> = { 401: 'Unauthorized', 404: 'Not Found' }
