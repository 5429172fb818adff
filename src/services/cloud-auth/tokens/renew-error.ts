import { AuthRefusal } from '../auth-refusal.ts'

/**
 * A renewal the backend's re-check refuses (docs/reference/cloud-auth.md §7); the message is the check's own, which the
 * handler answers as `failed to renew entry: <message>`.
 *
 * @note The real service answers these with a 500; the token no longer matching its role or instance is
 * the caller's state, not a server fault, so the service profile answers 400 with the same message (the
 * vault profile Vault's 500: `renew-self` throws the answer with `BAD_INPUT_500`).
 */
export class RenewError extends AuthRefusal {
  override name = 'RenewError'
  constructor(message: string, status = 400) {
    super(message, status, 'DOPPEL_RENEW_REFUSED')
  }
}
