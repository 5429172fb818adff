/**
 * `auth/token/create`, `create-orphan` and `create/<role>`: a token made by the calling token, as Vault's
 * `handleCreateCommon` makes it (`vault/token_store.go`; docs/reference/cloud-auth.md §7.2, and against a
 * role docs/reference/cloud-auth.md §7.3). Only a token with the `root` policy gets here (a login's policies
 * grant no path but its own token's, and doppel holds no other policies), so every caller has root's
 * privileges: a custom id, an orphan, a period and any policies are allowed it; a role still bounds what is
 * created against it.
 */
import type { RequestContext } from '../../../core/glossary.ts'
import { DoppelError } from '../../../core/doppel-error.ts'
import { AuthRefusal } from '../auth-refusal.ts'
import { calculateTtl, sanitisePolicies } from '../login/issue-auth.ts'
import { mountTable, TOKEN_MOUNT } from '../mounts/mount-table.ts'
import { authResponse, sortedKeys } from '../envelope.ts'
import { goDurationSeconds, type FieldSchema } from '../fields/index.ts'
import type { OperationCall } from '../routing/api-route.ts'
import { callerToken, tokenById, type TokenFields } from './named-token.ts'
import { newTokenCredentials } from './new-token.ts'
import { TOKEN_MESSAGES } from './token-messages.ts'
import { ROLE_NAME, type TokenRole } from './token-roles.ts'
import { tokenStore, type IssuedToken } from './token-store.ts'

/** The fields every create path takes (Vault's `commonFieldsForCreate`). */
export const CREATE_FIELDS: FieldSchema = {
  display_name: 'string',
  explicit_max_ttl: 'string',
  entity_alias: 'string',
  num_uses: 'int',
  period: 'string',
  renewable: 'bool',
  ttl: 'string',
  lease: 'string',
  type: 'string',
  no_default_policy: 'bool',
  id: 'string',
  meta: 'kvPairs',
  no_parent: 'bool',
  policies: 'stringList',
}

/** Policies a token may never carry (Vault's `nonAssignablePolicies`). */
const NOT_ASSIGNABLE = ['response-wrapping', 'control-group']

/** Policies a fresh server holds; a created token naming any other is warned about. */
const EXISTING_POLICIES = ['default', 'root']

/** The warning for a token created with an id of the caller's choosing. */
const CUSTOM_ID_WARNING =
  'Supplying a custom ID for the token uses the weaker SHA1 hashing instead of the more secure SHA2-256 HMAC for token obfuscation. SHA1 hashed tokens on the wire leads to less secure lookups.'

/** `create`: a child of the calling token. */
export const handleCreate = (call: OperationCall, read: TokenFields): Response => create(call, read, 'create')

/** `create-orphan`: a token with no parent. */
export const handleCreateOrphan = (call: OperationCall, read: TokenFields): Response => create(call, read, 'create-orphan')

/** `create/<role>`: a token against a token role (an unknown one: 400 `unknown role <name>`); a name no role can have is no path (undefined). */
export function handleCreateAgainstRole(call: OperationCall, read: TokenFields): Response | undefined {
  const name = call.params.role ?? ''
  if (!ROLE_NAME.test(name)) return undefined
  const role = tokenStore(call.context.emulator).roles.get(name)
  if (!role) throw new AuthRefusal(TOKEN_MESSAGES.unknownRole(name)).explain({ rule: 'token role', seen: name, hint: 'create the role first: auth/token/roles/<name>' })
  return create(call, read, `create/${name}`, role)
}

/** The calling token as a parent: what the checks read of it. */
interface Parent {
  id: string
  policies: readonly string[]
  numUses: number
  expiring: boolean
  entityId: string
  boundCidrs: readonly string[]
}

function parentOf(call: OperationCall): Parent | undefined {
  const id = callerToken(call.request, call.context)
  const named = tokenById(call.context, id)
  if (!named) return undefined
  if ('root' in named) return { id, policies: ['root'], numUses: 0, expiring: false, entityId: '', boundCidrs: [] }
  const { token } = named
  return { id, policies: token.policies, numUses: token.num_uses, expiring: token.expire_time !== null, entityId: token.entity_id, boundCidrs: token.bound_cidrs }
}

/** The checks and the token, in Vault's order; the first refusal is thrown as an `AuthRefusal` with why, answered at the service's edge. */
function create(call: OperationCall, { fields, warnings: ignored }: TokenFields, path: string, role?: TokenRole): Response {
  const { context } = call
  const parent = parentOf(call)
  // The caller's last use was this request: the real store no longer finds it.
  if (!parent) throw new AuthRefusal(TOKEN_MESSAGES.noParent).explain({ rule: 'parent token', seen: 'the calling token was used up by this request' })
  if (parent.numUses > 0) throw new AuthRefusal(TOKEN_MESSAGES.restrictedUse).explain({ rule: 'parent token', seen: `a token with ${parent.numUses} uses left`, hint: 'create with a token of unlimited uses' })

  const explicitMaxText = fields.string('explicit_max_ttl') ?? ''
  const periodText = fields.string('period') ?? ''
  const numUses = fields.int('num_uses') ?? 0
  const type = tokenType(roleTokenType(fields.string('type') ?? '', role), explicitMaxText, numUses, periodText)
  let renewable = type === 'service' && (fields.bool('renewable') ?? true) && (role?.renewable ?? true)
  if (numUses < 0) throw new AuthRefusal(TOKEN_MESSAGES.negativeUses).explain({ rule: 'num_uses', seen: String(numUses), expected: '0 (unlimited) or more' })
  const alias = entityAlias(fields.string('entity_alias') ?? '', role)
  const meta = fields.pairs('meta')
  const metadata = meta === undefined || call.data.meta === null ? null : (sortedKeys(meta) as Record<string, string>)
  const name = fields.string('display_name') ?? ''
  const displayName = name === '' ? 'token' : `token-${name}`.replace(/[^a-zA-Z0-9-]/gu, '-').replace(/-$/, '')
  const customId = fields.string('id') ?? ''

  const noDefault = fields.bool('no_default_policy') ?? false
  const asked = fields.list('policies') ?? []
  const policies = assignable(role && roleLimitsPolicies(role) ? rolePolicies(asked, parent, role, noDefault) : tokenPolicies(asked, parent, noDefault))
  const isRoot = policies.includes('root')
  if (isRoot && type === 'batch') throw new AuthRefusal(TOKEN_MESSAGES.batchRoot).explain({ rule: 'type', seen: 'batch, with the root policy', expected: 'service' })
  const orphan = role ? role.orphan : path === 'create-orphan' || (fields.bool('no_parent') ?? false)

  const explicitMaxTtl = durationOf('explicit_max_ttl', explicitMaxText)
  const period = durationOf('period', periodText)
  const ttlText = fields.string('ttl') ?? ''
  let ttl = ttlText !== '' ? durationOf('ttl', ttlText) : durationOf('lease', fields.string('lease') ?? '')

  const warnings: string[] = []
  let explicitMaxToUse = explicitMaxTtl
  let periodToUse = period
  if (role && type !== 'batch') {
    explicitMaxToUse = lesser(explicitMaxTtl, role.token_explicit_max_ttl, TOKEN_MESSAGES.lesserExplicitMax, warnings)
    periodToUse = lesser(period, role.token_period, TOKEN_MESSAGES.lesserPeriod, warnings)
  }
  if (periodToUse > 0 || ttl > 0 || !isRoot) {
    const calculated = calculateTtl(mountTable(context.emulator).leaseTtls(TOKEN_MOUNT), ttl, periodToUse, 0, explicitMaxToUse)
    ttl = calculated.ttl
    warnings.push(...calculated.warnings)
  }
  if (ttl === 0 && explicitMaxToUse > 0) ttl = explicitMaxToUse
  let boundCidrs = role ? [...role.token_bound_cidrs] : orphan ? [] : [...parent.boundCidrs]
  if (ttl === 0) {
    if (parent.expiring) throw new AuthRefusal(TOKEN_MESSAGES.expiringRootParent).explain({ rule: 'ttl', seen: 'a token without expiry, created by one that expires', hint: 'give the new token a ttl' })
    renewable = false
    boundCidrs = []
  }
  if (customId !== '') warnings.push(CUSTOM_ID_WARNING)

  // A batch token's id is never the caller's; a refused id draws nothing from the random source.
  const ownId = customId !== '' && type === 'service'
  if (ownId) checkCustomId(customId, context)
  const credentials = newTokenCredentials(context.emulator, type)
  if (ownId) credentials.id = customId
  const store = tokenStore(context.emulator)
  const nowMs = context.emulator.clock.nowMs()
  const entityId = alias ? entityOf(context, alias) : orphan ? '' : parent.entityId
  const uses = role ? roleUses(numUses, role.token_num_uses) : numUses
  const token: IssuedToken = {
    id: credentials.id,
    ...(!orphan && { parent: parent.id }),
    ...(role && { role: role.name }),
    accessor: credentials.accessor,
    type,
    policies,
    metadata,
    display_name: displayName,
    entity_id: entityId,
    path: `auth/token/${path}${role?.path_suffix ? `/${role.path_suffix}` : ''}`,
    mount: TOKEN_MOUNT,
    creation_time: nowMs,
    creation_ttl: ttl,
    expire_time: ttl > 0 ? nowMs + ttl * 1000 : null,
    explicit_max_ttl: explicitMaxTtl,
    period,
    num_uses: uses,
    renewable,
    bound_cidrs: boundCidrs,
    internal_data: {},
  }
  store.save(token)
  for (const policy of policies) if (!EXISTING_POLICIES.includes(policy)) warnings.push(TOKEN_MESSAGES.policyMissing(policy))
  const auth = {
    client_token: token.id,
    accessor: token.accessor,
    policies,
    token_policies: policies,
    metadata,
    lease_duration: ttl,
    renewable,
    entity_id: entityId,
    token_type: type,
    orphan,
    mfa_requirement: null,
    num_uses: uses,
  }
  return authResponse(context, { auth, warnings: [...warnings, ...ignored], mountType: 'token' })
}

/**
 * The type asked for, and a batch token's refusals: Vault checks the first of explicit max TTL, uses and
 * period that is given, and only that one.
 */
function tokenType(text: string, explicitMaxText: string, numUses: number, periodText: string): 'service' | 'batch' {
  if (text === '' || text === 'service') return 'service'
  if (text !== 'batch') throw new AuthRefusal(TOKEN_MESSAGES.invalidTokenType).explain({ rule: 'type', seen: text, expected: 'service or batch' })
  let bad: string | undefined
  if (explicitMaxText !== '') bad = batchDuration('explicit_max_ttl', explicitMaxText) !== 0 ? 'explicit_max_ttl' : undefined
  else if (numUses !== 0) bad = 'num_uses'
  else if (periodText !== '') bad = batchDuration('period', periodText) !== 0 ? 'period' : undefined
  if (bad !== undefined) throw new AuthRefusal(TOKEN_MESSAGES.batchWith(bad)).explain({ rule: 'type', seen: `batch, with ${bad}`, hint: `a batch token cannot have ${bad}: leave it out or create a service token` })
  return 'batch'
}

function batchDuration(name: string, text: string): number {
  try {
    return goDurationSeconds(text)
  } catch (error) {
    if (error instanceof DoppelError) throw new AuthRefusal(TOKEN_MESSAGES.batchUnparsable(name)).explain({ rule: name, seen: text, expected: 'a duration' })
    throw error
  }
}

/** A duration field given as text: the parser's words when it does not parse, Vault's when it is negative. */
function durationOf(name: string, text: string): number {
  if (text === '') return 0
  let seconds: number
  try {
    seconds = goDurationSeconds(text)
  } catch (error) {
    if (error instanceof DoppelError) throw new AuthRefusal(error.message).explain({ rule: name, seen: text, expected: 'a duration: seconds, or Go syntax such as 1h30m' })
    throw error
  }
  if (seconds < 0) throw new AuthRefusal(TOKEN_MESSAGES.notPositive(name)).explain({ rule: name, seen: text, expected: '0 or more' })
  return seconds
}

/**
 * The new token's policies: none asked for inherits the parent's (`default` only if it has it); else the
 * asked-for ones with `default` unless `no_default_policy`, which removes it in any case. A policy no token
 * may carry is refused.
 */
function tokenPolicies(asked: readonly string[], parent: Parent, noDefault: boolean): string[] {
  const policies = asked.length === 0 ? sanitisePolicies(parent.policies, false) : sanitisePolicies(asked, !noDefault)
  return noDefault ? policies.filter((policy) => policy !== 'default') : policies
}

/** Policies no token may carry are refused. */
function assignable(policies: string[]): string[] {
  const refused = policies.find((policy) => NOT_ASSIGNABLE.includes(policy))
  if (refused !== undefined) throw new AuthRefusal(TOKEN_MESSAGES.notAssignable(refused)).explain({ rule: 'policies', seen: refused, hint: 'this policy is for the server itself' })
  return policies
}

/** Whether a role sets which policies its tokens may have (any of its four lists). */
function roleLimitsPolicies(role: TokenRole): boolean {
  return [role.allowed_policies, role.disallowed_policies, role.allowed_policies_glob, role.disallowed_policies_glob].some((list) => list.length > 0)
}

/**
 * The policies of a token against a role that limits them: those asked for (with `default` unless the call,
 * the role or its disallowed lists say not), else the role's allowed ones (or the parent's); each must be
 * allowed, by name or glob, and none disallowed.
 */
function rolePolicies(asked: readonly string[], parent: Parent, role: TokenRole, noDefault: boolean): string[] {
  const addDefault = !noDefault && !role.token_no_default_policy && !role.disallowed_policies.includes('default') && !globMatchesAny(role.disallowed_policies_glob, 'default')
  let policies = asked.length > 0 ? sanitisePolicies(asked, addDefault) : []
  if (role.allowed_policies.length > 0 || role.allowed_policies_glob.length > 0) {
    const allowed = sanitisePolicies(role.allowed_policies, addDefault)
    if (policies.length === 0) policies = allowed
    else {
      const globs = sanitisePolicies(role.allowed_policies_glob, false)
      if (!policies.every((policy) => allowed.includes(policy) || globMatchesAny(globs, policy))) {
        throw new AuthRefusal(TOKEN_MESSAGES.notSubsetOfRole(policies, allowed, globs)).explain({ rule: 'allowed_policies', seen: policies.join(', '), expected: [...allowed, ...globs].join(', ') })
      }
    }
  } else if (policies.length === 0) policies = sanitisePolicies(parent.policies, addDefault)
  const disallowed = policies.find((policy) => role.disallowed_policies.includes(policy) || globMatchesAny(role.disallowed_policies_glob, policy))
  if (disallowed !== undefined) throw new AuthRefusal(TOKEN_MESSAGES.disallowedByRole(disallowed)).explain({ rule: 'disallowed_policies', seen: disallowed })
  policies = sanitisePolicies(policies, false)
  return noDefault ? policies.filter((policy) => policy !== 'default') : policies
}

/** Whether a `*` glob of the list matches the text (Vault's `StrListContainsGlob`, go-glob: `*` is any run of characters). */
function globMatchesAny(globs: readonly string[], text: string): boolean {
  return globs.some((glob) => new RegExp(`^${glob.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 's').test(text))
}

/** The type asked for, as a role's type settles it: a `default-*` role lets the call choose, else the role's. */
function roleTokenType(asked: string, role: TokenRole | undefined): string {
  if (!role || role.token_type === 'default-service') return asked
  if (role.token_type === 'default-batch') return asked === '' ? 'batch' : asked
  return role.token_type
}

/** An entity alias asked for: only against a role that allows it (by name or glob, compared lower-cased). */
function entityAlias(asked: string, role: TokenRole | undefined): string | undefined {
  if (asked === '') return undefined
  if (!role) throw new AuthRefusal(TOKEN_MESSAGES.entityAliasWithoutRole).explain({ rule: 'entity_alias', seen: asked, hint: 'create against a token role that allows the alias' })
  const lower = asked.toLowerCase()
  const allowed = role.allowed_entity_aliases ?? []
  if (!allowed.includes(lower) && !globMatchesAny(allowed, lower)) {
    throw new AuthRefusal(TOKEN_MESSAGES.invalidEntityAlias).explain({ rule: 'allowed_entity_aliases', seen: asked, expected: allowed.join(', ') || 'none: the role allows no alias' })
  }
  return asked
}

/** The entity behind an alias of the token mount: made at its first use, the same after. */
function entityOf(context: RequestContext, alias: string): string {
  const store = tokenStore(context.emulator)
  const key = `${TOKEN_MOUNT}\u0000${alias}`
  const known = store.entities.get(key)
  if (known) return known.entity_id
  const entityId = context.emulator.random.uuid()
  store.entities.set({ key, mount: TOKEN_MOUNT, alias_name: alias, entity_id: entityId, metadata: {} })
  return entityId
}

/** A role's uses bound the call's: unlimited (0) takes the role's, and the lesser of two limits wins. */
function roleUses(asked: number, roleUses: number): number {
  if (roleUses === 0) return asked
  return asked === 0 || roleUses < asked ? roleUses : asked
}

/** The lesser of a call's and a role's setting where both are set, with the store's warning; the one set otherwise. */
function lesser(asked: number, fromRole: number, warning: (seconds: number) => string, warnings: string[]): number {
  if (fromRole === 0) return asked
  if (asked === 0) return fromRole
  const chosen = Math.min(asked, fromRole)
  warnings.push(warning(chosen))
  return chosen
}

/** A custom id the real store refuses: its own prefixes, a period, or one a token already has. */
function checkCustomId(id: string, context: RequestContext): void {
  const refusal = id.startsWith('hvs.')
    ? TOKEN_MESSAGES.customIdPrefix('hvs.')
    : id.startsWith('s.')
      ? TOKEN_MESSAGES.customIdPrefix('s.')
      : id.includes('.')
        ? TOKEN_MESSAGES.customIdPeriod
        : tokenById(context, id)
          ? TOKEN_MESSAGES.duplicateId
          : undefined
  if (refusal !== undefined) throw new AuthRefusal(refusal).explain({ rule: 'id', seen: 'a custom token id', hint: refusal === TOKEN_MESSAGES.duplicateId ? 'choose an id no token has' : 'leave out the prefix and periods' })
}
