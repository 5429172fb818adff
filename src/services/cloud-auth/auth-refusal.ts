import { DoppelError, type DoppelErrorCode } from '../../core/doppel-error.ts'

/**
 * An error answer of the auth service: `{"errors":[message]}` with the status. Handlers throw it from
 * the check that decides it; the edge turns it into the response once.
 */
export class AuthRefusal extends DoppelError {
  override name = 'AuthRefusal'
  readonly status: number
  constructor(message: string, status = 400, code: DoppelErrorCode = 'DOPPEL_AUTH_REFUSED') {
    super(code, message)
    this.status = status
  }
}
