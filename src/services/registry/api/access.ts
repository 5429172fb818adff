import { listText, type Explanation } from '../../../core/explanation.ts'
import type { Caller } from '../glossary.ts'
import type { RegistryState } from '../model/registry-state.ts'
import { SETUP_PREFIX } from '../urls.ts'

/** The bearer token of a request, if it carries one. */
export function bearerToken(request: Request): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.get('authorization') ?? '')
  return match?.[1]
}

/** Who the request's token belongs to; undefined for a missing or unknown token (a 401). */
export function authenticate(state: RegistryState, request: Request): Caller | undefined {
  const token = bearerToken(request)
  if (token === undefined) return undefined
  if (state.emulator.isRootToken(token)) return { root: true, organizations: new Set() }
  const record = state.tokens.get(token)
  return record ? { root: false, organizations: new Set(record.organizations) } : undefined
}

/** Whether the caller may act on the organisation; a caller who may not gets the same 404 as a miss. */
export function canAccess(caller: Caller, organization: string): boolean {
  return caller.root || caller.organizations.has(organization)
}

/** Why that 404 (the client cannot tell it from a miss; the journal can). */
export function noAccess(caller: Caller, organization: string): Explanation {
  return {
    rule: "the token's organizations",
    seen: organization,
    expected: listText([...caller.organizations]),
    hint: `a registry token reaches only the organizations it was created for (POST ${SETUP_PREFIX}tokens)`,
  }
}
