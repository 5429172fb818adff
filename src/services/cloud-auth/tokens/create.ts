/**
 * `auth/token/create`, `create-orphan` and `create/<role>`: a token made by the calling token, as Vault's
 * `handleCreateCommon` makes it (`vault/token_store.go`, docs/reference/cloud-auth.md §7.2). Only a token
 * with the `root` policy gets here (a login's policies grant no path but its own token's, and doppel holds
 * no other policies), so every caller has root's privileges: a custom id, an orphan, a period and any
 * policies are allowed it. Token roles are not emulated: every role is unknown.
 */
import type { Explanation } from '../../../core/explanation.ts'
import { explainResponse } from '../../../core/explanation.ts'
import type { RequestContext } from '../../../core/glossary.ts'
import { DoppelError } from '../../../core/doppel-error.ts'
import { calculateTtl, sanitisePolicies } from '../login/issue-auth.ts'
import { mountTable, TOKEN_MOUNT } from '../mounts/mount-table.ts'
import { authError, authResponse, sortedKeys } from '../envelope.ts'
import { goDurationSeconds, type FieldSchema } from '../fields/index.ts'
import type { OperationCall } from '../routing/api-route.ts'
import { callerToken, tokenById, type TokenFields } from './named-token.ts'
import { newTokenCredentials } from './new-token.ts'
import { TOKEN_MESSAGES } from './token-messages.ts'
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

/** Vault's `GenericNameRegex`: the role names `create/<role>` routes; other names are no path of the store. */
const ROLE_NAME = /^\w(?:[\w.-]*\w)?$/

/** `create`: a child of the calling token. */
export const handleCreate = (call: OperationCall, read: TokenFields): Response => createToken(call, read, 'create')

/** `create-orphan`: a token with no parent. */
export const handleCreateOrphan = (call: OperationCall, read: TokenFields): Response => createToken(call, read, 'create-orphan')

/** `create/<role>`: no token role exists, so the real store's 400 `unknown role <name>`; a name no role can have is its 404. */
export function handleCreateAgainstRole({ params }: OperationCall): Response | undefined {
  const name = params.role ?? ''
  if (!ROLE_NAME.test(name)) return undefined
  return refuse(TOKEN_MESSAGES.unknownRole(name), { rule: 'token role', seen: name, hint: 'doppel emulates no token roles: create through auth/token/create' })
}

/** A refusal of the create path, as Vault words it, with why. */
class CreateRefusal extends DoppelError {
  readonly why: Explanation
  constructor(message: string, why: Explanation) {
    super('DOPPEL_AUTH_REFUSED', message)
    this.why = why
  }
}

function refuse(message: string, why: Explanation): Response {
  return explainResponse(authError(400, message), why)
}

function createToken(call: OperationCall, read: TokenFields, path: 'create' | 'create-orphan'): Response {
  try {
    return create(call, read, path)
  } catch (error) {
    if (error instanceof CreateRefusal) return refuse(error.message, error.why)
    throw error
  }
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

/** The checks and the token, in Vault's order; the first refusal is thrown as a `CreateRefusal`. */
function create(call: OperationCall, { fields, warnings: ignored }: TokenFields, path: 'create' | 'create-orphan'): Response {
  const { context } = call
  const parent = parentOf(call)
  // The caller's last use was this request: the real store no longer finds it.
  if (!parent) return refuse(TOKEN_MESSAGES.noParent, { rule: 'parent token', seen: 'the calling token was used up by this request' })
  if (parent.numUses > 0) throw new CreateRefusal(TOKEN_MESSAGES.restrictedUse, { rule: 'parent token', seen: `a token with ${parent.numUses} uses left`, hint: 'create with a token of unlimited uses' })

  const explicitMaxText = fields.string('explicit_max_ttl') ?? ''
  const periodText = fields.string('period') ?? ''
  const numUses = fields.int('num_uses') ?? 0
  const type = tokenType(fields.string('type') ?? '', explicitMaxText, numUses, periodText)
  let renewable = type === 'service' && (fields.bool('renewable') ?? true)
  if (numUses < 0) throw new CreateRefusal(TOKEN_MESSAGES.negativeUses, { rule: 'num_uses', seen: String(numUses), expected: '0 (unlimited) or more' })
  if ((fields.string('entity_alias') ?? '') !== '') {
    throw new CreateRefusal(TOKEN_MESSAGES.entityAliasWithoutRole, { rule: 'entity_alias', seen: fields.string('entity_alias')!, hint: 'doppel emulates no token roles: leave entity_alias out' })
  }
  const meta = fields.pairs('meta')
  const metadata = meta === undefined || call.data.meta === null ? null : (sortedKeys(meta) as Record<string, string>)
  const name = fields.string('display_name') ?? ''
  const displayName = name === '' ? 'token' : `token-${name}`.replace(/[^a-zA-Z0-9-]/gu, '-').replace(/-$/, '')
  const customId = fields.string('id') ?? ''

  const policies = tokenPolicies(fields.list('policies') ?? [], parent, fields.bool('no_default_policy') ?? false)
  const isRoot = policies.includes('root')
  if (isRoot && type === 'batch') throw new CreateRefusal(TOKEN_MESSAGES.batchRoot, { rule: 'type', seen: 'batch, with the root policy', expected: 'service' })
  const orphan = path === 'create-orphan' || (fields.bool('no_parent') ?? false)

  const explicitMaxTtl = durationOf('explicit_max_ttl', explicitMaxText)
  const period = durationOf('period', periodText)
  const ttlText = fields.string('ttl') ?? ''
  let ttl = ttlText !== '' ? durationOf('ttl', ttlText) : durationOf('lease', fields.string('lease') ?? '')

  const warnings: string[] = []
  if (period > 0 || ttl > 0 || !isRoot) {
    const calculated = calculateTtl(mountTable(context.emulator).leaseTtls(TOKEN_MOUNT), ttl, period, 0, explicitMaxTtl)
    ttl = calculated.ttl
    warnings.push(...calculated.warnings)
  }
  if (ttl === 0 && explicitMaxTtl > 0) ttl = explicitMaxTtl
  let boundCidrs = orphan ? [] : [...parent.boundCidrs]
  if (ttl === 0) {
    if (parent.expiring) throw new CreateRefusal(TOKEN_MESSAGES.expiringRootParent, { rule: 'ttl', seen: 'a token without expiry, created by one that expires', hint: 'give the new token a ttl' })
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
  const entityId = orphan ? '' : parent.entityId
  const token: IssuedToken = {
    id: credentials.id,
    ...(!orphan && { parent: parent.id }),
    accessor: credentials.accessor,
    type,
    policies,
    metadata,
    display_name: displayName,
    entity_id: entityId,
    path: `auth/token/${path}`,
    mount: TOKEN_MOUNT,
    creation_time: nowMs,
    creation_ttl: ttl,
    expire_time: ttl > 0 ? nowMs + ttl * 1000 : null,
    explicit_max_ttl: explicitMaxTtl,
    period,
    num_uses: numUses,
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
    num_uses: numUses,
  }
  return authResponse(context, { auth, warnings: [...warnings, ...ignored], mountType: 'token' })
}

/**
 * The type asked for, and a batch token's refusals: Vault checks the first of explicit max TTL, uses and
 * period that is given, and only that one.
 */
function tokenType(text: string, explicitMaxText: string, numUses: number, periodText: string): 'service' | 'batch' {
  if (text === '' || text === 'service') return 'service'
  if (text !== 'batch') throw new CreateRefusal(TOKEN_MESSAGES.invalidTokenType, { rule: 'type', seen: text, expected: 'service or batch' })
  let bad: string | undefined
  if (explicitMaxText !== '') bad = batchDuration('explicit_max_ttl', explicitMaxText) !== 0 ? 'explicit_max_ttl' : undefined
  else if (numUses !== 0) bad = 'num_uses'
  else if (periodText !== '') bad = batchDuration('period', periodText) !== 0 ? 'period' : undefined
  if (bad !== undefined) throw new CreateRefusal(TOKEN_MESSAGES.batchWith(bad), { rule: 'type', seen: `batch, with ${bad}`, hint: `a batch token cannot have ${bad}: leave it out or create a service token` })
  return 'batch'
}

function batchDuration(name: string, text: string): number {
  try {
    return goDurationSeconds(text)
  } catch (error) {
    if (error instanceof DoppelError) throw new CreateRefusal(TOKEN_MESSAGES.batchUnparsable(name), { rule: name, seen: text, expected: 'a duration' })
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
    if (error instanceof DoppelError) throw new CreateRefusal(error.message, { rule: name, seen: text, expected: 'a duration: seconds, or Go syntax such as 1h30m' })
    throw error
  }
  if (seconds < 0) throw new CreateRefusal(TOKEN_MESSAGES.notPositive(name), { rule: name, seen: text, expected: '0 or more' })
  return seconds
}

/**
 * The new token's policies: none asked for inherits the parent's (`default` only if it has it); else the
 * asked-for ones with `default` unless `no_default_policy`, which removes it in any case. A policy no token
 * may carry is refused.
 */
function tokenPolicies(asked: readonly string[], parent: Parent, noDefault: boolean): string[] {
  let policies = asked.length === 0 ? sanitisePolicies(parent.policies, false) : sanitisePolicies(asked, !noDefault)
  if (noDefault) policies = policies.filter((policy) => policy !== 'default')
  const refused = policies.find((policy) => NOT_ASSIGNABLE.includes(policy))
  if (refused !== undefined) throw new CreateRefusal(TOKEN_MESSAGES.notAssignable(refused), { rule: 'policies', seen: refused, hint: 'this policy is for the server itself' })
  return policies
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
  if (refusal !== undefined) throw new CreateRefusal(refusal, { rule: 'id', seen: 'a custom token id', hint: refusal === TOKEN_MESSAGES.duplicateId ? 'choose an id no token has' : 'leave out the prefix and periods' })
}
