import type { Service } from '../../../core/glossary.ts'
import { RouteTable, type RouteRow } from '../../../core/routing/index.ts'
import { handleLookupSelf } from './lookup-self.ts'
import { handleRenewSelf } from './renew-self.ts'
import { handleRevokeSelf } from './revoke-self.ts'

/**
 * A token endpoint about the calling token, a row of any method under `auth/<token mount>/`: the HTTP
 * methods it answers (PUT is POST to the real service); the others get the token store's own 405s.
 */
export interface SelfRoute extends RouteRow {
  methods: readonly string[]
  handle: Service
}

/** The token store's `*-self` endpoints, by path under `auth/<token mount>/`. */
export const SELF_ROUTES = new RouteTable<SelfRoute>(
  [
    { path: 'lookup-self', methods: ['GET', 'POST', 'PUT'], handle: handleLookupSelf },
    { path: 'renew-self', methods: ['POST', 'PUT'], handle: handleRenewSelf },
    { path: 'revoke-self', methods: ['POST', 'PUT'], handle: handleRevokeSelf },
  ],
  { trailingSlash: 'as-written' },
)

/** The `*-self` endpoint at a path under `auth/<token mount>/`, if any. */
export function selfRoute(path: string): SelfRoute | undefined {
  const match = SELF_ROUTES.match('', path)
  return typeof match === 'number' ? undefined : match.row
}
