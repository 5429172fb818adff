import type { RequestContext } from '../../../core/glossary.ts'
import { explainResponse } from '../../../core/explanation.ts'
import { requestToken } from '../../../core/request-token.ts'
import { authError, multiError } from '../envelope.ts'
import { MESSAGES } from '../auth-messages.ts'
import { Fields, unknownFields, type FieldSchema } from '../fields/index.ts'
import { rootTokenByAccessor } from './token-data.ts'
import { TOKEN_MESSAGES } from './token-messages.ts'
import { addressIsAllowed } from './bound-cidrs.ts'
import { tokenDenied } from './token-refusal.ts'
import { tokenStore, type IssuedToken } from './token-store.ts'

/** The token a route names: a configured root token (by id), or a live stored one. */
export type NamedToken = { root: string } | { token: IssuedToken }

/**
 * A token-store route's request data, read as the real service reads it: the fields of its schema converted
 * (a conversion's refusal is thrown, as the framework's validation precedes the handler) and the warning
 * for the fields it does not know, which the real service adds to an answer with a body.
 */
export interface TokenFields {
  fields: Fields
  /** The ignored-parameters warning, if any field was unknown. */
  warnings: string[]
}

export function readTokenFields(schema: FieldSchema, data: Record<string, unknown>): TokenFields {
  const ignored = unknownFields(schema, data)
  return { fields: new Fields(schema, data), warnings: ignored.length > 0 ? [MESSAGES.ignoredParameters(ignored)] : [] }
}

/**
 * Vault's core reads a `token` field sent to `lookup`, `renew` and `revoke` before the handler runs and
 * refuses JSON null with 403 `invalid token` (`vault/request_handling.go`); any other value that is no
 * string stops Vault 1.21.4 there too (its connection drops; the real server CI runs answers the same 403).
 */
export function invalidTokenField(data: Record<string, unknown>): Response | undefined {
  if (!Object.hasOwn(data, 'token') || typeof data.token === 'string') return undefined
  const why = { rule: 'token field', seen: data.token === null ? 'null' : typeof data.token, expected: 'the token as a string' }
  return explainResponse(authError(403, TOKEN_MESSAGES.invalidToken), why)
}

/** Why a named token is refused when the store does not hold it. */
export const NOT_HELD = { rule: 'token', seen: 'a token doppel does not hold (never issued, expired, revoked, or dropped by a reset)' }

/** The `token` field, or the real service's 400 `missing token ID`. */
export function tokenIdField(fields: Fields, action: string): string | Response {
  const id = fields.string('token') ?? ''
  if (id !== '') return id
  return explainResponse(authError(400, TOKEN_MESSAGES.missingTokenId), { rule: 'token', seen: 'none', expected: `the token to ${action}` })
}

/** The token with this id, as the token store holds it (an expired one is gone). */
export function tokenById(context: RequestContext, id: string): NamedToken | undefined {
  if (context.emulator.isRootToken(id)) return { root: id }
  const token = tokenStore(context.emulator).lookup(id)
  return token && { token }
}

/** The `accessor` field, or the real service's 400 `missing accessor` (multierror-wrapped: the handler returns it as an error, which the router wraps). */
export function accessorField(fields: Fields): string | Response {
  const accessor = fields.string('accessor') ?? ''
  if (accessor !== '') return accessor
  return explainResponse(authError(400, multiError(TOKEN_MESSAGES.missingAccessor)), { rule: 'accessor', seen: 'none', expected: 'an accessor' })
}

/** The token with this accessor: a configured root token's, or a live stored one's. */
export function tokenByAccessor(context: RequestContext, accessor: string): NamedToken | undefined {
  const root = rootTokenByAccessor(accessor, context.emulator)
  if (root !== undefined) return { root }
  const token = tokenStore(context.emulator).lookupByAccessor(accessor)
  return token && { token }
}

/** 400 `invalid accessor` (multierror-wrapped), for an accessor of no live token. */
export function invalidAccessor(): Response {
  const why = { rule: 'accessor', seen: 'an accessor of no live token', hint: 'the token may have expired or been revoked; its accessor goes with it' }
  return explainResponse(authError(400, multiError(TOKEN_MESSAGES.invalidAccessor)), why)
}

/**
 * The calling token of a `*-self` route: a configured root token, or a live stored one used from an address
 * it is bound to; else the 403 `permission denied`, with why.
 */
export function callingToken(request: Request, context: RequestContext): NamedToken | Response {
  const id = requestToken(request, context.profile)
  if (!id) return tokenDenied(context, undefined, id)
  const named = tokenById(context, id)
  if (!named) return tokenDenied(context, tokenStore(context.emulator), id)
  if ('token' in named && !addressIsAllowed(context.remoteAddress, named.token.bound_cidrs)) {
    return tokenDenied(context, tokenStore(context.emulator), id, named.token.bound_cidrs)
  }
  return named
}

/** The calling token's id (the edge has already checked that it is a root token). */
export const callerToken = (request: Request, context: RequestContext): string => requestToken(request, context.profile) ?? ''
