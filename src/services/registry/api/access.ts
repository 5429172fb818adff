import { listText, type Explanation } from '../../../core/explanation.ts'
import type { RegistryCaller } from '../glossary.ts'
import type { RouteRow, RouteTable } from '../../../core/routing/index.ts'
import type { RegistryState } from '../model/registry-state.ts'
import { SETUP_PREFIX } from '../urls.ts'

/** The bearer token of a request, if it carries one. */
function bearerToken(request: Request): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.get('authorization') ?? '')
  return match?.[1]
}

/** A path no registry route answers: the nearest routes (the 404 is the same whatever the cause). */
export function routeMiss(method: string, path: string, table: RouteTable<RouteRow>): Explanation {
  return { rule: 'route', seen: `${method} ${path}`, expected: `the nearest registry routes: ${listText(table.nearest(path))}`, hint: 'no registry route answers it' }
}

/** Headers a token is often sent in by mistake: the auth service's, Vault's, and Terraform's credential names. */
const OTHER_TOKEN_HEADERS = ['x-service-token', 'x-vault-token', 'x-registry-token', 'x-api-token', 'token', 'x-auth-token']

/** Why a request's token was refused (a 401): none, in the wrong header or scheme, or never issued. */
export function tokenRefusal(request: Request): Explanation {
  const expected = `the Authorization header as Bearer <token> (a root token, or one from POST ${SETUP_PREFIX}tokens or a fixture)`
  const authorization = request.headers.get('authorization')
  if (authorization !== null && bearerToken(request) === undefined) {
    const scheme = authorization.trim().split(/[ \t]/)[0] ?? ''
    return { rule: 'registry token', seen: `an Authorization header without the Bearer scheme (${scheme ? `"${scheme.slice(0, 20)} …"` : 'empty'})`, expected }
  }
  if (authorization !== null) return { rule: 'registry token', seen: 'a bearer token doppel never issued', expected }
  const other = OTHER_TOKEN_HEADERS.find((name) => request.headers.has(name))
  if (other !== undefined) {
    return {
      rule: 'registry token',
      seen: `a token in the ${other} header, which the registry does not read`,
      expected,
      hint: 'the registry reads its token only from the Authorization header; X-Service-Token is the auth service\'s header',
    }
  }
  return { rule: 'registry token', seen: 'no Authorization header', expected }
}

/** Who the request's token belongs to; undefined for a missing or unknown token (a 401). */
export function authenticateRequest(state: RegistryState, request: Request): RegistryCaller | undefined {
  const token = bearerToken(request)
  if (token === undefined) return undefined
  if (state.emulator.isRootToken(token)) return { root: true, organizations: new Set() }
  const record = state.tokens.get(token)
  return record ? { root: false, organizations: new Set(record.organizations) } : undefined
}

/** Whether the caller may act on the organisation; a caller who may not gets the same 404 as a miss. */
export function canAccess(caller: RegistryCaller, organization: string): boolean {
  return caller.root || caller.organizations.has(organization)
}

/** Why that 404 (the client cannot tell it from a miss; the journal can). */
export function noAccess(caller: RegistryCaller, organization: string): Explanation {
  return {
    rule: "the token's organizations",
    seen: organization,
    expected: listText([...caller.organizations]),
    hint: `a registry token reaches only the organizations it was created for (POST ${SETUP_PREFIX}tokens)`,
  }
}
