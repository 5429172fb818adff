import { AuthRefusal } from '../auth-refusal.ts'

/**
 * A refused login: the message the client sees and the status. Every refusal is a value of this class,
 * thrown from the step that decides it and turned into `{"errors":[message]}` once, at the edge.
 *
 * @note Where the real service answers bad input with a 500 (docs/reference/cloud-auth.md §11), doppel answers 400 with the
 * same message, so there is no 5xx here.
 */
export class LoginError extends AuthRefusal {
  override name = 'LoginError'
  constructor(message: string, status = 400) {
    super(message, status, 'DOPPEL_LOGIN_REFUSED')
  }
}
