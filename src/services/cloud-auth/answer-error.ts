import { explainResponse } from '../../core/explanation.ts'
import type { AuthProfile } from './auth-profile.ts'
import { CLOUD_AUTH_ERROR_CODES } from './error-codes.ts'
import { StateTooLargeError } from '../../core/store.ts'
import { authError, multiError } from './envelope.ts'
import { FieldError } from './fields/index.ts'
import { MESSAGES } from './auth-messages.ts'
import { AuthRefusal } from './auth-refusal.ts'

/** Where a request was refused: the real service wraps an internal error in a multierror except on `login`. */
export type RefusedOn = 'login' | 'authenticated'

/**
 * The auth service's one error-to-answer mapper, called at its edge (`cloudAuth`): a refusal (login,
 * renewal, request data, …) answers its message with the status the profile asks for (doppel's own, or the
 * real service's, which is a 500 for some bad input), a field that does not convert answers 400
 * `Field validation failed: …` (docs/reference/cloud-auth.md §1.6), state past `maxStateBytes` 413, anything
 * else a 500 with its message. A refusal's explanation goes beside the answer, for the journal; one thrown
 * without is named by its code's meaning and its message.
 */
export function answerError(error: unknown, on: RefusedOn, profile: Pick<AuthProfile, 'badInputStatus'>): Response {
  if (error instanceof AuthRefusal) {
    const status = profile.badInputStatus === 'real' ? error.realStatus : error.status
    const answer = status === 500 ? internalError(error.message, on) : authError(status, error.message)
    return explainResponse(answer, error.explanation ?? { rule: meaning(error.code), seen: error.message })
  }
  if (error instanceof FieldError) {
    return explainResponse(authError(400, MESSAGES.fieldValidation(error.message)), error.explanation ?? { rule: 'field type', seen: error.message })
  }
  if (error instanceof StateTooLargeError) return explainResponse(authError(413, error.message), { rule: 'maxStateBytes', seen: error.message })
  return internalError(error instanceof Error ? error.message : String(error), on)
}

/** The real service's internal error: 500, the message bare on login and a multierror elsewhere (docs/reference/cloud-auth.md §1.6). */
function internalError(message: string, on: RefusedOn): Response {
  return authError(500, on === 'login' ? message : multiError(message))
}

/** A code's meaning as the auth method's list words it: an explanation's rule where nothing more precise was given. */
function meaning(code: string): string {
  return (CLOUD_AUTH_ERROR_CODES as Record<string, string>)[code] ?? code
}
