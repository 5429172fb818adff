import { createHash, timingSafeEqual } from 'node:crypto'
import type { Emulator } from '../../core/emulator.ts'
import type { Profile } from '../../core/profile.ts'
import { requestToken } from '../../core/request-token.ts'

const digest = (value: string) => createHash('sha256').update(value).digest()

/**
 * Whether a request carries a management token: one of the emulator's root tokens or one of `extraTokens`
 * (`--control-token`), read from the profile's token headers or `Authorization: Bearer`.
 *
 * @note Compared as SHA-256 digests with `timingSafeEqual`, so neither the length nor the content of a
 * configured token leaks through answer timing.
 */
export function hasManagementToken(
  request: Request,
  context: { emulator: Pick<Emulator, 'rootTokens'>; profile: Profile },
  extraTokens: Iterable<string> = [],
): boolean {
  const token = requestToken(request, context.profile)
  if (!token) return false
  const offered = digest(token)
  let found = false
  for (const candidate of [...context.emulator.rootTokens, ...extraTokens]) {
    if (timingSafeEqual(offered, digest(candidate))) found = true
  }
  return found
}
