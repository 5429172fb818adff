import type { Profile } from './profile.ts'

/**
 * The token a request carries, read one way for every caller (the management check, the token endpoints,
 * the control API): the profile's token headers in order, taken as sent, as the real service reads
 * `X-Vault-Token`; else `Authorization: Bearer <token>`, the token trimmed.
 */
export function requestToken(request: Request, profile: Profile): string | undefined {
  for (const header of profile.tokenHeaders) {
    const value = request.headers.get(header)
    if (value) return value
  }
  const authorization = request.headers.get('authorization') ?? ''
  const bearer = /^Bearer\s+(.+)$/i.exec(authorization)
  return bearer ? bearer[1]!.trim() : undefined
}
