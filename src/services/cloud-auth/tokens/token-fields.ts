/**
 * The token settings every role carries (the real service's `tokenutil`, docs/reference/cloud-auth.md §1.8): parsing present
 * fields on top of the stored ones, and the read form.
 */
import { type BoundAddressError, parseBoundAddress } from '../bound-address.ts'
import type { FieldSchema, Fields } from '../fields/index.ts'
import type { RoleEntry, TokenType } from '../glossary.ts'
import { MESSAGES } from '../auth-messages.ts'
import { AuthRefusal } from '../auth-refusal.ts'
import { ownEntry } from '../../../core/own-field.ts'

export const TOKEN_FIELDS: FieldSchema = {
  token_bound_cidrs: 'commaList',
  token_explicit_max_ttl: 'duration',
  token_max_ttl: 'duration',
  token_no_default_policy: 'bool',
  token_num_uses: 'int',
  token_period: 'duration',
  token_policies: 'commaList',
  token_type: 'string',
  token_ttl: 'duration',
}

const TOKEN_TYPES: Record<string, TokenType> = { '': 'default', default: 'default', service: 'service', batch: 'batch' }

type TokenSettings = Pick<
  RoleEntry,
  | 'token_bound_cidrs'
  | 'token_explicit_max_ttl'
  | 'token_max_ttl'
  | 'token_no_default_policy'
  | 'token_num_uses'
  | 'token_period'
  | 'token_policies'
  | 'token_type'
  | 'token_ttl'
>

/**
 * Applies the present token fields to `role` (a working copy) in the real service's order of checks;
 * `skipType` leaves `token_type` to the caller (a token role reads its own, as Vault deletes it first).
 */
export function applyTokenFields(role: TokenSettings, fields: Fields, { skipType = false } = {}): void {
  const cidrs = fields.list('token_bound_cidrs')
  if (cidrs !== undefined) {
    try {
      role.token_bound_cidrs = cidrs.map(parseBoundAddress)
    } catch (error) {
      throw new AuthRefusal((error as BoundAddressError).message)
    }
  }
  const explicitMax = fields.duration('token_explicit_max_ttl')
  if (explicitMax !== undefined) role.token_explicit_max_ttl = explicitMax
  const maxTtl = nonNegativeDuration(fields, 'token_max_ttl')
  if (maxTtl !== undefined) role.token_max_ttl = maxTtl
  const noDefault = fields.bool('token_no_default_policy')
  if (noDefault !== undefined) role.token_no_default_policy = noDefault
  const period = nonNegativeDuration(fields, 'token_period')
  if (period !== undefined) role.token_period = period
  const policies = fields.list('token_policies')
  if (policies !== undefined) role.token_policies = policies
  const type = skipType ? undefined : fields.string('token_type')
  if (type !== undefined) {
    const parsed = ownEntry(TOKEN_TYPES, type)
    if (parsed === undefined) throw new AuthRefusal(MESSAGES.invalidTokenType(type))
    role.token_type = parsed
  }
  const ttl = nonNegativeDuration(fields, 'token_ttl')
  if (ttl !== undefined) role.token_ttl = ttl
  const numUses = fields.int('token_num_uses')
  if (numUses !== undefined) role.token_num_uses = numUses
  if (role.token_num_uses < 0) throw new AuthRefusal(MESSAGES.negativeToken('token_num_uses'))
  if (role.token_type === 'batch') {
    if (role.token_period !== 0) throw new AuthRefusal(MESSAGES.batchPeriodic)
    if (role.token_num_uses !== 0) throw new AuthRefusal(MESSAGES.batchNumUses)
  }
  if (role.token_ttl > 0 && role.token_max_ttl > 0 && role.token_ttl > role.token_max_ttl) {
    throw new AuthRefusal(MESSAGES.tokenTtlAboveMax)
  }
}

/** A present duration field, refused when negative with the real service's text. */
function nonNegativeDuration(fields: Fields, name: 'token_max_ttl' | 'token_period' | 'token_ttl'): number | undefined {
  const seconds = fields.duration(name)
  if (seconds !== undefined && seconds < 0) throw new AuthRefusal(MESSAGES.negativeToken(name))
  return seconds
}

/** The token settings as a read shows them: every key present, lists `[]` when empty. */
export function tokenReadData(role: TokenSettings): Record<string, unknown> {
  return {
    token_bound_cidrs: [...role.token_bound_cidrs],
    token_explicit_max_ttl: role.token_explicit_max_ttl,
    token_max_ttl: role.token_max_ttl,
    token_no_default_policy: role.token_no_default_policy,
    token_num_uses: role.token_num_uses,
    token_period: role.token_period,
    token_policies: [...role.token_policies],
    token_ttl: role.token_ttl,
    token_type: role.token_type,
  }
}
