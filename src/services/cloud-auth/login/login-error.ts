import { AuthRefusal, type RefusalStatus } from '../auth-refusal.ts'

/**
 * A refused login: the message the client sees and the status. Every refusal is a value of this class,
 * thrown from the step that decides it and turned into `{"errors":[message]}` once, at the edge.
 *
 * @note Where the real service answers bad input with a 500 (docs/reference/cloud-auth.md §11), the refusal
 * carries both statuses (`BAD_INPUT_500`): the service profile answers 400 with the same message, the vault
 * profile Vault's 500.
 */
export class LoginError extends AuthRefusal {
  override name = 'LoginError'
  constructor(message: string, status: number | RefusalStatus = 400) {
    super(message, status, 'DOPPEL_LOGIN_REFUSED')
  }
}
