/**
 * The token store's roles (`auth/token/roles/<name>`, Vault's `tokenStoreRoleCreateUpdate`, `…Read`, `…List`,
 * `…Delete` in `vault/token_store.go`; docs/reference/cloud-auth.md §7.3): what `create/<role>` creates
 * against.
 */
import { explainResponse } from '../../../core/explanation.ts'
import { AuthRefusal } from '../auth-refusal.ts'
import { type BoundAddressError, parseBoundAddress } from '../bound-address.ts'
import { authError, authResponse, multiError, noContent } from '../envelope.ts'
import { MESSAGES } from '../auth-messages.ts'
import type { TokenType } from '../glossary.ts'
import type { FieldSchema } from '../fields/index.ts'
import { lowerCaseSet, sanitizePolicies } from '../policies.ts'
import { mountTable, TOKEN_MOUNT } from '../mounts/mount-table.ts'
import type { OperationCall, OperationRoute } from '../routing/api-route.ts'
import { unsupportedOperation } from '../routing/http-operation.ts'
import { applyTokenFields, TOKEN_FIELDS } from './token-fields.ts'
import { readTokenFields } from './named-token.ts'
import { TOKEN_MESSAGES } from './token-messages.ts'
import { tokenStore } from './token-store.ts'
import { ownEntry } from '../../../core/own-field.ts'

/** A token role's token type: the `default-*` ones let the create call choose. */
type TokenRoleType = 'default-service' | 'default-batch' | 'service' | 'batch'

/** A token role as the token store keeps it (Vault's `tsRoleEntry`; durations in seconds). */
export interface TokenRole {
  name: string
  allowed_policies: string[]
  disallowed_policies: string[]
  allowed_policies_glob: string[]
  disallowed_policies_glob: string[]
  orphan: boolean
  path_suffix: string
  renewable: boolean
  token_type: TokenRoleType
  /** Lower-cased; null until set. */
  allowed_entity_aliases: string[] | null
  /** The deprecated names' values, shown as stored. */
  period: number
  explicit_max_ttl: number
  bound_cidrs: string[]
  token_period: number
  token_explicit_max_ttl: number
  token_bound_cidrs: string[]
  token_num_uses: number
  token_no_default_policy: boolean
  /** Stored and never used by the token store (nor shown), as in Vault. */
  token_ttl: number
  token_max_ttl: number
  token_policies: string[]
}

/** The fields a role write takes (the role path's own, and `tokenutil`'s). */
const ROLE_FIELDS: FieldSchema = {
  allowed_policies: 'commaList',
  disallowed_policies: 'commaList',
  allowed_policies_glob: 'commaList',
  disallowed_policies_glob: 'commaList',
  orphan: 'bool',
  period: 'duration',
  path_suffix: 'string',
  explicit_max_ttl: 'duration',
  renewable: 'bool',
  bound_cidrs: 'commaList',
  allowed_entity_aliases: 'commaList',
  ...TOKEN_FIELDS,
}

/** Vault's `GenericNameRegex`: the names a role path takes; any other is no path of the store. */
export const ROLE_NAME = /^\w(?:[\w.-]*\w)?$/

/** Vault's `pathSuffixSanitize`, and how it names it in its refusal. */
const PATH_SUFFIX = /\w[\w-.]+\w/
const PATH_SUFFIX_TEXT = String.raw`\w[\w-.]+\w`

const ROLE_TOKEN_TYPES: Readonly<Record<string, TokenRoleType>> = { service: 'service', batch: 'batch', 'default-service': 'default-service', 'default-batch': 'default-batch' }

/** Deprecated fields and the fields that replace them: given both, the old one is ignored with a warning. */
const DEPRECATED = [
  ['token_period', 'period'],
  ['token_bound_cidrs', 'bound_cidrs'],
  ['token_explicit_max_ttl', 'explicit_max_ttl'],
] as const

function newRole(name: string): TokenRole {
  return {
    name,
    allowed_policies: [],
    disallowed_policies: [],
    allowed_policies_glob: [],
    disallowed_policies_glob: [],
    orphan: false,
    path_suffix: '',
    renewable: true,
    token_type: 'default-service',
    allowed_entity_aliases: null,
    period: 0,
    explicit_max_ttl: 0,
    bound_cidrs: [],
    token_period: 0,
    token_explicit_max_ttl: 0,
    token_bound_cidrs: [],
    token_num_uses: 0,
    token_no_default_policy: false,
    token_ttl: 0,
    token_max_ttl: 0,
    token_policies: [],
  }
}

/** Writes a role: a new one from the defaults, an existing one with only the fields given changed; refusals in Vault's order. */
function writeRole({ context, params, data }: OperationCall): Response {
  const { fields, warnings: ignored } = readTokenFields(ROLE_FIELDS, data)
  const store = tokenStore(context.emulator)
  const name = params.name!
  const role = structuredClone(store.roles.get(name) ?? newRole(name))

  for (const list of ['allowed_policies', 'allowed_policies_glob'] as const) {
    const given = fields.list(list)
    if (given !== undefined) role[list] = sanitizePolicies(given)
  }
  for (const list of ['disallowed_policies', 'disallowed_policies_glob'] as const) {
    const given = fields.list(list)
    if (given !== undefined) role[list] = lowerCaseSet(given)
  }
  role.orphan = fields.bool('orphan') ?? role.orphan
  role.renewable = fields.bool('renewable') ?? role.renewable
  const suffix = fields.string('path_suffix')
  if (suffix !== undefined) {
    if (suffix !== '' && !PATH_SUFFIX.test(suffix)) throw refusal(TOKEN_MESSAGES.pathSuffixInvalid(PATH_SUFFIX_TEXT), 'path_suffix', suffix)
    role.path_suffix = suffix
  }
  if (role.path_suffix.includes('..')) throw refusal(TOKEN_MESSAGES.pathSuffixParent, 'path_suffix', role.path_suffix)

  let type: string | undefined
  if (Object.hasOwn(data, 'token_type')) {
    if (data.token_type === null) throw refusal(TOKEN_MESSAGES.roleTokenTypeNull, 'token_type', 'null')
    type = fields.string('token_type')
  }
  // tokenutil checks a batch type's period and uses; a type given here is read after it, as Vault resets it first.
  const settings = { ...role, token_type: (type === undefined && role.token_type.endsWith('batch') ? 'batch' : 'default') as TokenType }
  try {
    applyTokenFields(settings, fields, { skipType: true })
    Object.assign(role, settings, { token_type: role.token_type })
  } catch (error) {
    if (error instanceof AuthRefusal) throw refusal(TOKEN_MESSAGES.roleFields(error.message), 'token fields', error.message)
    throw error
  }
  if (type !== undefined) {
    const parsed = ownEntry(ROLE_TOKEN_TYPES, type)
    if (parsed === undefined) throw refusal(MESSAGES.invalidTokenType(type), 'token_type', type)
    role.token_type = parsed
  }

  const warnings: string[] = []
  for (const [current, deprecated] of DEPRECATED) {
    if (fields.has(current) && fields.has(deprecated)) warnings.push(TOKEN_MESSAGES.deprecatedIgnored(current, deprecated))
  }
  if (!fields.has('token_period')) {
    if (fields.has('period')) role.period = role.token_period = fields.duration('period')!
  } else role.period = 0
  if (!fields.has('token_bound_cidrs')) {
    const given = fields.list('bound_cidrs')
    if (given !== undefined) {
      try {
        role.bound_cidrs = role.token_bound_cidrs = given.map(parseBoundAddress)
      } catch (error) {
        throw refusal(TOKEN_MESSAGES.boundCidrsUnparsable((error as BoundAddressError).message), 'bound_cidrs', given.join(','))
      }
    }
  } else role.bound_cidrs = []
  let explicitMax = role.token_explicit_max_ttl
  if (!fields.has('token_explicit_max_ttl')) {
    if (fields.has('explicit_max_ttl')) role.explicit_max_ttl = role.token_explicit_max_ttl = fields.duration('explicit_max_ttl')!
    explicitMax = role.explicit_max_ttl
  } else role.explicit_max_ttl = 0
  const systemMax = mountTable(context.emulator).leaseTtls(TOKEN_MOUNT).maxTtl
  if (explicitMax > systemMax) warnings.push(TOKEN_MESSAGES.roleExplicitMaxAboveSystem(explicitMax, systemMax))

  if (role.token_type === 'batch') {
    const bad = !role.orphan ? 'non-orphan' : role.period !== 0 || role.token_period !== 0 ? 'periodic' : role.renewable ? 'renewable' : role.explicit_max_ttl !== 0 || role.token_explicit_max_ttl !== 0 ? 'explicit max' : undefined
    if (bad !== undefined) throw refusal(TOKEN_MESSAGES.batchRole(bad), 'token_type', `batch, on a role set to generate ${bad} tokens`)
  }
  const aliases = fields.list('allowed_entity_aliases')
  if (aliases !== undefined) role.allowed_entity_aliases = lowerCaseSet(aliases)

  store.roles.set(role)
  // The unknown fields' warning joins an answer with a body only: without warnings of its own, the write is 204.
  return warnings.length > 0 ? authResponse(context, { warnings: [...warnings, ...ignored], mountType: 'token' }) : noContent()
}

function refusal(message: string, rule: string, seen: string): AuthRefusal {
  return new AuthRefusal(message).explain({ rule, seen })
}

/** A role as a read shows it (Vault's `tokenStoreRoleRead`): the CIDR lists and uses only when set. */
function roleData(role: TokenRole): Record<string, unknown> {
  return {
    period: role.period,
    token_period: role.token_period,
    explicit_max_ttl: role.explicit_max_ttl,
    token_explicit_max_ttl: role.token_explicit_max_ttl,
    disallowed_policies: role.disallowed_policies,
    allowed_policies: role.allowed_policies,
    disallowed_policies_glob: role.disallowed_policies_glob,
    allowed_policies_glob: role.allowed_policies_glob,
    name: role.name,
    orphan: role.orphan,
    path_suffix: role.path_suffix,
    renewable: role.renewable,
    token_type: role.token_type,
    allowed_entity_aliases: role.allowed_entity_aliases,
    token_no_default_policy: role.token_no_default_policy,
    ...(role.token_bound_cidrs.length > 0 && { token_bound_cidrs: role.token_bound_cidrs }),
    ...(role.bound_cidrs.length > 0 && { bound_cidrs: role.bound_cidrs }),
    ...(role.token_num_uses > 0 && { token_num_uses: role.token_num_uses }),
  }
}

const NO_ROLE_NAME = 'A name no role can have: `unsupported path`'

const NOT_FOUND = () => explainResponse(authError(404), { rule: 'token role', seen: 'no role by that name' })

/** `roles/<name>`: read, write (create or update), delete; a name outside `GenericNameRegex` is no path. */
export const tokenRoleRoute: OperationRoute = {
  path: 'roles/:name',
  reads: 'operation',
  token: 'root',
  describe: {
    get: { summary: 'Read a token role', answers: { '200': 'The role', '404': 'No such role, or a name no role can have' } },
    post: { summary: 'Create or update a token role', body: ROLE_FIELDS, answers: { '204': 'Written', '200': 'Written, with warnings', '404': NO_ROLE_NAME } },
    delete: { summary: 'Delete a token role', answers: { '204': 'Deleted (also a role that does not exist)', '404': NO_ROLE_NAME } },
  },
  run(call) {
    const name = call.params.name ?? ''
    if (!ROLE_NAME.test(name)) return explainResponse(authError(404, multiError(MESSAGES.unsupportedPath)), { rule: 'route', seen: call.path, expected: 'roles/<name>, the name of letters, digits, _, - and . (neither of the last two first or last)' })
    const store = tokenStore(call.context.emulator)
    switch (call.operation) {
      case 'read': {
        const role = store.roles.get(name)
        return role ? authResponse(call.context, { data: roleData(role), mountType: 'token' }) : NOT_FOUND()
      }
      case 'update':
        return writeRole(call)
      case 'delete':
        store.roles.delete(name)
        return noContent()
      default:
        return unsupportedOperation(false)
    }
  },
}

/** `roles` (Vault's `roles/?$`): a LIST of the roles' names; none is the empty list's 404. */
export const tokenRolesListRoute = (path: string): OperationRoute => ({
  path,
  reads: 'operation',
  token: 'root',
  ...(path.endsWith('/') && { describe: { get: { summary: 'List the token roles (LIST, or GET with list=true)', answers: { '200': '`keys`: the names', '404': 'No roles' } } } }),
  run({ context, operation }) {
    if (operation !== 'list') return unsupportedOperation(false)
    const keys = [...tokenStore(context.emulator).roles.keys()].sort()
    return keys.length > 0 ? authResponse(context, { data: { keys }, mountType: 'token' }) : NOT_FOUND()
  },
})
