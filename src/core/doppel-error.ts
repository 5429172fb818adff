import type { Explanation } from './explanation.ts'
/**
 * The base of every error doppel throws, with a stable `code` to match on instead of the message (as
 * Node's `ERR_*` and vitest's codes). Messages stay the real services' texts to the letter; the code
 * names the case. Each floor lists its own codes once, with what they mean (the core's below; a
 * service's, a feature's, a face's and the command line's in their `error-codes.ts`), and adds them to
 * `DoppelErrorCodes`; a class cannot be thrown with a code no floor lists. `ERROR_CODES` (the package's
 * entry point) joins the lists. The fake cloud's `CloudError` is the one exception: its code is the
 * provider's own (`NoSuchEntity`, `InvalidInstanceID.NotFound`), as the AWS SDK reports it.
 */
export const CORE_ERROR_CODES = {
  DOPPEL_INVALID_FAULT: 'a fault the fault list refuses (status, delay, pattern, count)',
  DOPPEL_PATTERN_TOO_LONG: 'a path pattern longer than the limit',
  DOPPEL_INVALID_SNAPSHOT: 'a snapshot document that does not restore; nothing changed',
  DOPPEL_BODY_TOO_LARGE: 'a request body over the size limit',
  DOPPEL_INVALID_DURATION: 'a duration that does not parse (Go durations, seconds, `<n>d`)',
  DOPPEL_INVALID_TIME: 'an RFC 3339 time that does not parse',
  DOPPEL_INVALID_SCALAR: 'a bool or integer text Go strconv refuses',
  DOPPEL_INVALID_ASN1: 'a malformed ASN.1 encoding',
  DOPPEL_STATE_TOO_LARGE: "a write that would take the state past its size limit (`maxStateBytes`); nothing written",
  DOPPEL_START_FILE: 'a file named at start that is not a regular file, is too large or cannot be read',
  DOPPEL_BUSY: 'a large document that would wait behind too many others being parsed (fixtures); nothing was loaded, try again',
  DOPPEL_VERIFY_FAILED: '`journal.verify` saw another number of matching requests than expected',
  DOPPEL_ROUTE_PATTERN_SHAPE: 'a route row whose path pattern is not made of whole segments',
} as const

/**
 * Every code a floor lists: each floor's `error-codes.ts` merges its own table's codes into this interface.
 * @public (augmented by `declare module`, which no import shows)
 */
export interface DoppelErrorCodes extends Record<keyof typeof CORE_ERROR_CODES, string> {}

export type DoppelErrorCode = keyof DoppelErrorCodes & string

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
 * The class of one error kind whose only content is its message, for `class DurationError extends
 * errorKind('DurationError', 'DOPPEL_INVALID_DURATION') {}`: `instanceof DurationError`, `name` and `code`
 * all hold.
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
