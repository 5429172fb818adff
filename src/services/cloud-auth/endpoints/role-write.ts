/**
 * Role create and update (docs/reference/cloud-auth.md §3.7): every rule in the real service's order, the first failure
 * wins, and the role is stored only when all passed (the work happens on a copy).
 */
import { copyRecord } from '../../../core/copy-record.ts'
import type { Fields } from '../fields/index.ts'
import type { AuthType, RoleEntry } from '../glossary.ts'
import { ROLE_TAG_KEY_LIMIT } from '../limits.ts'
import { mountTable } from '../mounts/mount-table.ts'
import { MESSAGES } from '../auth-messages.ts'
import { sanitizePolicies } from '../policies.ts'
import type { OperationInput, OperationResult } from '../routing/endpoint.ts'
import { AuthRefusal } from '../auth-refusal.ts'
import { applyTokenFields } from '../tokens/token-fields.ts'
import { resolvePrincipalId } from './resolve-principal.ts'

/** A role as first created, before any field applies. */
function newRole(name: string, roleId: string): RoleEntry {
  return {
    name,
    role_id: roleId,
    auth_type: '' as AuthType,
    bound_ami_id: [],
    bound_account_id: [],
    bound_region: [],
    bound_vpc_id: [],
    bound_subnet_id: [],
    bound_iam_role_arn: [],
    bound_iam_instance_profile_arn: [],
    bound_iam_principal_arn: [],
    bound_iam_principal_id: [],
    bound_ec2_instance_id: null,
    inferred_entity_type: '',
    inferred_aws_region: '',
    resolve_aws_unique_ids: false,
    role_tag: '',
    allow_instance_migration: false,
    disallow_reauthentication: false,
    hmac_key: '',
    token_ttl: 0,
    token_max_ttl: 0,
    token_period: 0,
    token_explicit_max_ttl: 0,
    token_policies: [],
    token_bound_cidrs: [],
    token_no_default_policy: false,
    token_num_uses: 0,
    token_type: 'default',
    ttl: 0,
    max_ttl: 0,
    period: 0,
    policies: [],
  }
}

type ListField =
  | 'bound_ami_id'
  | 'bound_account_id'
  | 'bound_region'
  | 'bound_vpc_id'
  | 'bound_subnet_id'
  | 'bound_iam_role_arn'
  | 'bound_iam_instance_profile_arn'

function replaceLists(role: RoleEntry, fields: Fields, names: readonly ListField[]): void {
  for (const name of names) {
    const value = fields.list(name)
    if (value !== undefined) role[name] = value
  }
}

/**
 * Which binds each auth type allows, in the real service's order of checks. `ec2Binds` binds need the
 * ec2 type or inferencing; `bound_region` needs ec2 itself; `bound_iam_principal_arn` needs iam.
 */
const BIND_CHECKS: readonly { field: keyof RoleEntry; allowed: 'ec2Binds' | 'ec2' | 'iam'; message: string }[] = [
  { field: 'bound_account_id', allowed: 'ec2Binds', message: MESSAGES.ec2BindNotAllowed('bound_account_id') },
  { field: 'bound_region', allowed: 'ec2', message: MESSAGES.boundRegionNotAllowed },
  { field: 'bound_ami_id', allowed: 'ec2Binds', message: MESSAGES.ec2BindNotAllowed('bound_ami_id') },
  {
    field: 'bound_iam_instance_profile_arn',
    allowed: 'ec2Binds',
    message: MESSAGES.ec2BindNotAllowed('bound_iam_instance_profile_arn'),
  },
  { field: 'bound_ec2_instance_id', allowed: 'ec2Binds', message: MESSAGES.ec2BindNotAllowed('bound_ec2_instance_id') },
  { field: 'bound_iam_role_arn', allowed: 'ec2Binds', message: MESSAGES.ec2BindNotAllowed('bound_iam_role_arn') },
  { field: 'bound_iam_principal_arn', allowed: 'iam', message: MESSAGES.principalArnNotAllowed },
  { field: 'bound_vpc_id', allowed: 'ec2Binds', message: MESSAGES.ec2BindNotAllowed('bound_vpc_id') },
  { field: 'bound_subnet_id', allowed: 'ec2Binds', message: MESSAGES.ec2BindNotAllowed('bound_subnet_id') },
]

/** The deprecated names and their successors (step 16). */
const DEPRECATED_DURATIONS = [
  ['ttl', 'token_ttl'],
  ['max_ttl', 'token_max_ttl'],
  ['period', 'token_period'],
] as const

/** Creates or updates `role/:role` (docs/reference/cloud-auth.md §3.7, steps 1-21). */
export async function writeRole({ context, state, fields, params, operation }: OperationInput): Promise<OperationResult | undefined> {
  const create = operation === 'create'
  // 1-2: the name is lower-cased; a new role gets its role_id now.
  const name = params.role!.toLowerCase()
  if (name === '') throw new AuthRefusal(MESSAGES.missingRole)
  const stored = state.roles.get(name)
  const role: RoleEntry = stored ? copyRecord(stored) : newRole(name, context.emulator.random.uuid())

  // 3
  replaceLists(role, fields, ['bound_ami_id', 'bound_account_id', 'bound_region', 'bound_vpc_id', 'bound_subnet_id'])

  // 4
  const resolve = fields.bool('resolve_aws_unique_ids')
  if (resolve !== undefined) {
    if (!create && role.resolve_aws_unique_ids && !resolve) throw new AuthRefusal(MESSAGES.resolveTrueToFalse)
    role.resolve_aws_unique_ids = resolve
  } else if (create) role.resolve_aws_unique_ids = true

  // 5
  replaceLists(role, fields, ['bound_iam_role_arn', 'bound_iam_instance_profile_arn'])
  const instanceIds = fields.list('bound_ec2_instance_id')
  if (instanceIds !== undefined) role.bound_ec2_instance_id = instanceIds

  // 6
  const principalArns = fields.list('bound_iam_principal_arn')
  if (principalArns !== undefined) {
    role.bound_iam_principal_arn = principalArns
    role.bound_iam_principal_id = []
  }

  // 7: runs before the auth_type checks, so even a role rejected later is resolved first.
  if (role.resolve_aws_unique_ids && role.bound_iam_principal_id.length === 0) {
    for (const arn of role.bound_iam_principal_arn) {
      if (arn.endsWith('*')) continue
      try {
        role.bound_iam_principal_id.push(await resolvePrincipalId(context, state, arn))
      } catch (error) {
        throw new AuthRefusal(MESSAGES.unresolvableArn(arn, (error as Error).message))
      }
    }
  }

  // 8
  const inferredType = fields.string('inferred_entity_type')
  if (inferredType !== undefined) role.inferred_entity_type = inferredType
  const inferredRegion = fields.string('inferred_aws_region')
  if (inferredRegion !== undefined) role.inferred_aws_region = inferredRegion

  // 9
  const authType = fields.string('auth_type')
  if (authType !== undefined) {
    if (role.auth_type === ('' as AuthType)) {
      if (authType !== 'ec2' && authType !== 'iam') throw new AuthRefusal(MESSAGES.unrecognizedAuthType(authType))
      role.auth_type = authType
    } else if (authType !== role.auth_type) throw new AuthRefusal(MESSAGES.changingAuthType)
  } else if (create) role.auth_type = 'iam'

  // 10
  let ec2Binds = role.auth_type === 'ec2'
  if (role.inferred_entity_type !== '') {
    if (role.auth_type !== 'iam') throw new AuthRefusal(MESSAGES.inferredWithoutIam)
    if (role.inferred_entity_type !== 'ec2_instance') {
      throw new AuthRefusal(MESSAGES.invalidInferredType(role.inferred_entity_type))
    }
    if (role.inferred_aws_region === '') throw new AuthRefusal(MESSAGES.inferredWithoutRegion)
    ec2Binds = true
  } else if (role.inferred_aws_region !== '') throw new AuthRefusal(MESSAGES.regionWithoutInferred)

  // 11
  let binds = 0
  for (const check of BIND_CHECKS) {
    const value = role[check.field] as string[] | null
    if (!value || value.length === 0) continue
    const allowed = check.allowed === 'ec2Binds' ? ec2Binds : role.auth_type === check.allowed
    if (!allowed) throw new AuthRefusal(check.message)
    binds++
  }
  if (binds === 0) throw new AuthRefusal(MESSAGES.noBinds)

  // 12-14
  for (const flag of ['disallow_reauthentication', 'allow_instance_migration'] as const) {
    const value = fields.bool(flag)
    if (value !== undefined) {
      if (role.auth_type !== 'ec2') throw new AuthRefusal(MESSAGES.ec2OnlyFlag(flag))
      role[flag] = value
    } else if (create && role.auth_type === 'ec2') role[flag] = false
  }
  if (role.allow_instance_migration && role.disallow_reauthentication) throw new AuthRefusal(MESSAGES.bothReauthFlags)

  // 15
  applyTokenFields(role, fields)

  // 16
  upgradeDeprecated(role, fields)

  // 17-19
  const warnings: string[] = []
  const { maxTtl: mountMaxTtl } = mountTable(context.emulator).leaseTtls(state.mount)
  if (role.token_max_ttl > mountMaxTtl) warnings.push(MESSAGES.maxTtlAboveMount(role.token_max_ttl, mountMaxTtl))
  if (role.token_max_ttl !== 0 && role.token_max_ttl < role.token_ttl) throw new AuthRefusal(MESSAGES.ttlAboveMaxTtl)
  if (role.token_period > mountMaxTtl) throw new AuthRefusal(MESSAGES.periodAboveMount(role.token_period, mountMaxTtl))

  // 20
  const roleTag = fields.string('role_tag')
  if (roleTag !== undefined) {
    if (role.auth_type !== 'ec2') throw new AuthRefusal(MESSAGES.roleTagOnIam)
    role.role_tag = roleTag
    if (Buffer.byteLength(role.role_tag) > ROLE_TAG_KEY_LIMIT) throw new AuthRefusal(MESSAGES.roleTagTooLong)
  }

  // 21
  if (role.hmac_key === '') role.hmac_key = context.emulator.random.uuid()
  state.roles.set(role)
  return warnings.length > 0 ? { warnings } : undefined
}

/**
 * Deprecated names (docs/reference/cloud-auth.md §3.7 step 16): only the old name given sets both (policies sanitised);
 * only the new one clears the old; both given copies the new value into the old.
 */
function upgradeDeprecated(role: RoleEntry, fields: Fields): void {
  const oldPolicies = fields.list('policies')
  if (fields.has('token_policies')) role.policies = oldPolicies === undefined ? [] : [...role.token_policies]
  else if (oldPolicies !== undefined) {
    role.policies = sanitizePolicies(oldPolicies)
    role.token_policies = [...role.policies]
  }
  for (const [oldName, newName] of DEPRECATED_DURATIONS) {
    const oldValue = fields.duration(oldName)
    if (fields.has(newName)) role[oldName] = oldValue === undefined ? 0 : role[newName]
    else if (oldValue !== undefined) {
      role[oldName] = oldValue
      role[newName] = oldValue
    }
  }
}
