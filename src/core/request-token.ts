import { goTrimSpace } from './go/go-strings.ts'
import { LightHeaders } from './light-request.ts'
import type { Profile } from './profile.ts'

/**
 * The token a request carries, read one way for every caller (the management check, the token endpoints,
 * the control API), as the real service reads it (docs/reference/cloud-auth.md §1.2): the first value of
 * the profile's token headers in order, taken as sent; else the first `Authorization` value that starts
 * with `Bearer ` (that case, one space), the rest trimmed. `bearer root` or `Bearer<TAB>root` carry no token.
 */
export function requestToken(request: Request, profile: Profile): string | undefined {
  for (const header of profile.tokenHeaders) {
    const value = sentValues(request.headers, header)[0]
    if (value) return value
  }
  for (const value of sentValues(request.headers, 'authorization')) {
    if (value.startsWith(BEARER)) return goTrimSpace(value.slice(BEARER.length)) || undefined
  }
  return undefined
}

const BEARER = 'Bearer '

/** Where a request may carry its token, for a refusal's hint: the profile's headers, or the Bearer form as read. */
export function tokenPlaces(profile: Profile): string {
  return `${profile.tokenHeaders.join(' or ')}, or as "Authorization: Bearer <token>" (that case, one space)`
}

/**
 * A header's values in the order sent. The server's light headers keep each one; a Fetch `Headers` (in
 * process) holds them joined with ", ", so there they are split again at ", ", which no token holds (a
 * single value holding ", " reads as its parts: a difference only for a token that could not be valid).
 */
function sentValues(headers: Headers, name: string): string[] {
  const raw = headers instanceof LightHeaders ? headers.rawList() : undefined
  if (raw === undefined) {
    const joined = headers.get(name)
    return joined === null ? [] : joined.split(', ')
  }
  const values: string[] = []
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]!
    if (key.length === name.length && key.toLowerCase() === name) values.push(raw[i + 1]!)
  }
  return values
}
