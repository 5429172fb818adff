import type { Explanation } from './explanation.ts'
/**
 * The base of every error doppel throws, with a stable `code` to match on instead of the message (as
 * Node's `ERR_*` and vitest's codes). Messages stay the real services' texts to the letter; the code
 * names the case. Every code is listed here once, with what it means; a class outside this list cannot
 * be thrown with a code it does not name. The fake cloud's `CloudError` is the one exception: its code
 * is the provider's own (`NoSuchEntity`, `InvalidInstanceID.NotFound`), as the AWS SDK reports it.
 */
export const ERROR_CODES = {
  // Emulator and control (core, doppel.ts)
  DOPPEL_INVALID_FAULT: 'a fault the fault list refuses (status, delay, pattern, count)',
  DOPPEL_VERIFY_FAILED: '`journal.verify` saw another number of matching requests than expected',
  DOPPEL_PATTERN_TOO_LONG: 'a path pattern longer than the limit',
  DOPPEL_INVALID_SNAPSHOT: 'a snapshot document that does not restore; nothing changed',
  DOPPEL_BODY_TOO_LARGE: 'a request body over the size limit',
  DOPPEL_INVALID_DURATION: 'a duration that does not parse (Go durations, seconds, `<n>d`)',
  DOPPEL_INVALID_ASN1: 'a malformed ASN.1 encoding',
  DOPPEL_CONNECTION_DROPPED: 'a `drop` fault, or a delayed request ended by shutdown',
  DOPPEL_INVALID_TENANT_NAME: 'a tenant name that is not 1 to 63 of a-z, 0-9 and -',
  DOPPEL_DATA_DIR: 'the --data-dir cannot be used at start',
  DOPPEL_STATE_TOO_LARGE: "a write that would take the state past its size limit (`maxStateBytes`); nothing written",

  // Cloud auth service: answers (the `status` property carries the HTTP status)
  DOPPEL_AUTH_REFUSED: 'an error answer of the auth service',
  DOPPEL_INVALID_REQUEST_DATA: 'a request body the auth service cannot read',
  DOPPEL_LOGIN_REFUSED: 'a refused login',
  DOPPEL_RENEW_REFUSED: "a renewal the login method's re-check refuses",
  // Cloud auth service: parsers and checks (their message becomes part of an answer)
  DOPPEL_INVALID_FIELD: 'a field value that does not convert to its type',
  DOPPEL_INVALID_SCALAR: 'a bool or integer text Go strconv refuses',
  DOPPEL_INVALID_ADDRESS: 'a bound CIDR item that is no address',
  DOPPEL_INVALID_ARN: 'an IAM ARN that does not parse',
  DOPPEL_INVALID_ROLE_TAG: 'a role tag that does not parse or verify',
  DOPPEL_INVALID_PKCS7: 'a PKCS#7 signature that does not verify',
  DOPPEL_INVALID_TIME: 'an RFC 3339 time that does not parse',
  DOPPEL_INSTANCE_CHECK_FAILED: 'DescribeInstances did not give the running instance asked for',
  DOPPEL_PROVIDER_CREDENTIALS: 'no credentials for a provider call',
  DOPPEL_UPSTREAM_FAILED: 'a provider call over HTTP got no answer',
  DOPPEL_UPSTREAM_TIMEOUT: 'a provider call over HTTP timed out',
  DOPPEL_UPSTREAM_TOO_LARGE: "a provider's answer over the size limit",

  // Registry (the `status` property carries the HTTP status)
  DOPPEL_REGISTRY_UNAUTHORIZED: 'no or an unknown registry token',
  DOPPEL_REGISTRY_FORBIDDEN: 'a registry token without the right',
  DOPPEL_REGISTRY_NOT_FOUND: 'no such organization, module or version',
  DOPPEL_REGISTRY_CONFLICT: 'a registry write that conflicts with the stored state',
  DOPPEL_REGISTRY_BODY_TOO_LARGE: 'a registry request body over the limit',
  DOPPEL_REGISTRY_CONTENT_TYPE: 'a registry request without the JSON:API content type',
  DOPPEL_REGISTRY_INVALID_ARCHIVE: 'an upload that is not a module archive',
  DOPPEL_REGISTRY_INVALID_ATTRIBUTE: 'a JSON:API attribute that does not validate',
  DOPPEL_INVALID_REGISTRY_FIXTURE: 'a registry fixture that does not seed; nothing was stored',
  DOPPEL_INVALID_TAR: 'a corrupt or truncated tar archive',
  DOPPEL_INVALID_ARCHIVE: 'an upload that is not a readable module tarball',

  // Scenarios, fixtures, targets, command line
  DOPPEL_INVALID_SCENARIO: 'a scenario or targets file that does not validate (every issue listed)',
  DOPPEL_SEED_REFUSED: "a seed helper's change (`doppel.registry.deprecate`) the service refused",
  DOPPEL_INVALID_FIXTURE: 'a fixture that does not validate or that a service refused; nothing was loaded',
  DOPPEL_FIXTURE_PART_REFUSED: 'one part of a fixture a service refused',
  DOPPEL_INVALID_TEMPLATE: 'a `${{ }}` template that does not parse or resolve',
  DOPPEL_INVALID_JSON_PATH: 'a capture path outside the JSONPath subset',
  DOPPEL_INVALID_LABEL_EXPRESSION: 'a --label expression that does not parse',
  DOPPEL_TARGET_FAILED: 'a target action the service, the control API or the network refused',
  DOPPEL_TARGET_UNREACHABLE: 'the target did not answer at all',
  DOPPEL_USAGE: 'a command-line mistake',
  DOPPEL_STARTUP: 'a command that cannot start (port in use, unreadable file)',
  DOPPEL_ROUTE_PATTERN_SHAPE: 'a route row whose path pattern is not made of whole segments',
  DOPPEL_VAULT_BRIDGE: 'the real-Vault bridge could not be set up',
} as const

export type DoppelErrorCode = keyof typeof ERROR_CODES

export class DoppelError<Code extends string = DoppelErrorCode> extends Error {
  override name = 'DoppelError'
  readonly code: Code
  /** Why, for the journal (a refusal's rule, the value seen, what would pass); never shown to the client. */
  declare explanation: Explanation | undefined

  /** Sets the explanation where the error is thrown: `throw new LoginError(text).explain({ … })`. */
  explain(explanation: Explanation): this {
    this.explanation = explanation
    return this
  }

  constructor(code: Code, message: string, options?: ErrorOptions) {
    super(message, options)
    this.code = code
  }
}

/**
 * The class of one error kind whose only content is its message, for `class TarError extends
 * errorKind('TarError', 'DOPPEL_INVALID_TAR') {}`: `instanceof TarError`, `name` and `code` all hold.
 */
export function errorKind<Code extends DoppelErrorCode>(name: string, code: Code) {
  return class extends DoppelError<Code> {
    override name = name
    constructor(message: string, options?: ErrorOptions) {
      super(code, message, options)
    }
  }
}

/** Whether `error` is a DoppelError, with `code` when given: a check that survives renamed classes. */
export function isDoppelError<Code extends DoppelErrorCode>(error: unknown, code: Code): error is DoppelError<Code>
export function isDoppelError(error: unknown): error is DoppelError<string>
export function isDoppelError(error: unknown, code?: string): boolean {
  return error instanceof DoppelError && (code === undefined || error.code === code)
}

/** A code's meaning as ERROR_CODES words it: an explanation's rule where nothing more precise was given. */
export function codeMeaning(code: string): string {
  return (ERROR_CODES as Record<string, string>)[code] ?? code
}
