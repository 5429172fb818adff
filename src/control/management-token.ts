import type { Emulator } from '../core/emulator.ts'
import { requestToken } from '../cloud-auth/routing/request-token.ts'

/**
 * Whether a request carries a management token: one of the emulator's root tokens, in the profile's
 * token header (`X-Service-Token`; the vault profile also `X-Vault-Token`) or as a Bearer token.
 */
export function hasManagementToken(request: Request, emulator: Emulator): boolean {
  return emulator.isRootToken(requestToken(request, emulator.profile))
}
