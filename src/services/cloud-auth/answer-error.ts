import { StateTooLargeError } from '../../core/store.ts'
import { authError, multiError } from './envelope.ts'
import { FieldError } from './fields/index.ts'
import { MESSAGES } from './auth-messages.ts'
import { AuthRefusal } from './auth-refusal.ts'

/** Where a request was refused: the real service wraps an internal error in a multierror except on `login`. */
export type RefusedOn = 'login' | 'authenticated'

/**
 * The auth service's one error-to-answer mapper, called at its edge (`cloudAuth`): a refusal (login,
 * renewal, request data, …) answers its own status and message, a field that does not convert answers 400
 * `Field validation failed: …` (docs/reference/cloud-auth.md §1.6), state past `maxStateBytes` 413, anything else a 500 with its message.
 */
export function answerError(error: unknown, on: RefusedOn): Response {
  if (error instanceof AuthRefusal) return authError(error.status, error.message)
  if (error instanceof FieldError) return authError(400, MESSAGES.fieldValidation(error.message))
  if (error instanceof StateTooLargeError) return authError(413, error.message)
  const message = error instanceof Error ? error.message : String(error)
  return authError(500, on === 'login' ? message : multiError(message))
}
