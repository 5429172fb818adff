import type { Service } from '../../../core/glossary.ts'
import { authError } from '../envelope.ts'
import type { RequestRoute } from '../routing/api-route.ts'
import { unsupportedOperation } from '../routing/http-operation.ts'
import { handleLookupSelf } from './lookup-self.ts'
import { handleRenewSelf } from './renew-self.ts'
import { handleRevokeSelf } from './revoke-self.ts'

/** A token endpoint about the calling token: the HTTP methods it answers (PUT is POST to the real service). */
export interface SelfRoute extends RequestRoute {
  readonly methods: readonly string[]
}

/**
 * A self route, relative to the token mount: it reads the token it is about, so nothing is read before
 * it runs; other methods get the token store's own 405s.
 */
function selfRoute(path: string, methods: readonly string[], handle: Service): SelfRoute {
  const answer = { summary: `${path} of the calling token`, answers: { '200': 'The token', '204': 'Done' } }
  return {
    path,
    methods,
    reads: 'request',
    token: 'own',
    describe: Object.fromEntries(methods.filter((method) => method !== 'PUT').map((method) => [method.toLowerCase(), answer])),
    run({ request, context }) {
      if (methods.includes(request.method)) return handle(request, context)
      return ['GET', 'LIST', 'DELETE'].includes(request.method) ? unsupportedOperation(false) : authError(405)
    },
  }
}

/** The token store's `*-self` endpoints, by path under `auth/<token mount>/`. */
export const SELF_ROUTES: readonly SelfRoute[] = [
  selfRoute('lookup-self', ['GET', 'POST', 'PUT'], handleLookupSelf),
  selfRoute('renew-self', ['POST', 'PUT'], handleRenewSelf),
  selfRoute('revoke-self', ['POST', 'PUT'], handleRevokeSelf),
]
