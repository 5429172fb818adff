import type { Service } from '../../../core/glossary.ts'
import { handleLookupSelf } from './lookup-self.ts'
import { handleRenewSelf } from './renew-self.ts'
import { handleRevokeSelf } from './revoke-self.ts'

/** A token endpoint about the calling token: the HTTP methods it answers (PUT is POST to the real service). */
export interface SelfRoute {
  methods: readonly string[]
  handle: Service
}

/** The token store's `*-self` endpoints, by path under `auth/<token mount>/`. */
export const SELF_ROUTES: Readonly<Record<string, SelfRoute>> = {
  'lookup-self': { methods: ['GET', 'POST', 'PUT'], handle: handleLookupSelf },
  'renew-self': { methods: ['POST', 'PUT'], handle: handleRenewSelf },
  'revoke-self': { methods: ['POST', 'PUT'], handle: handleRevokeSelf },
}
