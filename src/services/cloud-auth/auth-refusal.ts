import { DoppelError, type DoppelErrorCode } from '../../core/doppel-error.ts'

/** A refusal's status in each profile: doppel's own (`status`) and the real service's (`realStatus`). */
export interface RefusalStatus {
  status: number
  realStatus: number
}

/**
 * Bad input the real service answers as an internal error (500): the service profile answers 400 with the
 * same message, because bad input must never give a 5xx; the vault profile answers Vault's 500
 * (`deviations.ts`, docs/reference/cloud-auth.md §11).
 */
export const BAD_INPUT_500: RefusalStatus = { status: 400, realStatus: 500 }

/**
 * An error answer of the auth service: `{"errors":[message]}` with the status. Handlers throw it from
 * the check that decides it; the edge turns it into the response once, with the status the profile asks for.
 */
export class AuthRefusal extends DoppelError {
  override name = 'AuthRefusal'
  readonly status: number
  /** The real service's status for the same refusal; the same as `status` unless given apart. */
  readonly realStatus: number
  constructor(message: string, status: number | RefusalStatus = 400, code: DoppelErrorCode = 'DOPPEL_AUTH_REFUSED') {
    super(code, message)
    this.status = typeof status === 'number' ? status : status.status
    this.realStatus = typeof status === 'number' ? status : status.realStatus
  }
}
