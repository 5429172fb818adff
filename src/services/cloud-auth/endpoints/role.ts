/** `role/:role` and LIST `role` / `roles` (docs/reference/cloud-auth.md §3.7). Names are case-insensitive. */
import type { FieldSchema } from '../fields/index.ts'
import type { RoleEntry } from '../glossary.ts'
import { listResult, type Endpoint } from '../routing/endpoint.ts'
import { TOKEN_FIELDS, tokenReadData } from '../tokens/token-fields.ts'
import { writeRole } from './role-write.ts'
import { WrittenJson } from '../../../core/go/go-json-text.ts'
import { sortedKeys } from '../envelope.ts'

const ROLE_FIELDS: FieldSchema = {
  role: 'string',
  auth_type: 'string',
  bound_ami_id: 'commaList',
  bound_account_id: 'commaList',
  bound_region: 'commaList',
  bound_vpc_id: 'commaList',
  bound_subnet_id: 'commaList',
  bound_iam_role_arn: 'commaList',
  bound_iam_instance_profile_arn: 'commaList',
  bound_ec2_instance_id: 'commaList',
  bound_iam_principal_arn: 'commaList',
  inferred_entity_type: 'string',
  inferred_aws_region: 'string',
  resolve_aws_unique_ids: 'bool',
  role_tag: 'string',
  allow_instance_migration: 'bool',
  disallow_reauthentication: 'bool',
  ttl: 'duration',
  max_ttl: 'duration',
  period: 'duration',
  policies: 'commaList',
  ...TOKEN_FIELDS,
}

/**
 * The read shape: every bound list as `[]` when empty except `bound_ec2_instance_id` (`null` until set);
 * the deprecated `ttl`, `max_ttl`, `period`, `policies` only while they hold a value. Keys in sorted
 * order, as the envelope writes them (it then has nothing to re-sort).
 */
function roleReadData(role: RoleEntry): Record<string, unknown> {
  return {
    allow_instance_migration: role.allow_instance_migration,
    auth_type: role.auth_type,
    bound_account_id: [...role.bound_account_id],
    bound_ami_id: [...role.bound_ami_id],
    bound_ec2_instance_id: role.bound_ec2_instance_id && [...role.bound_ec2_instance_id],
    bound_iam_instance_profile_arn: [...role.bound_iam_instance_profile_arn],
    bound_iam_principal_arn: [...role.bound_iam_principal_arn],
    bound_iam_principal_id: [...role.bound_iam_principal_id],
    bound_iam_role_arn: [...role.bound_iam_role_arn],
    bound_region: [...role.bound_region],
    bound_subnet_id: [...role.bound_subnet_id],
    bound_vpc_id: [...role.bound_vpc_id],
    disallow_reauthentication: role.disallow_reauthentication,
    inferred_aws_region: role.inferred_aws_region,
    inferred_entity_type: role.inferred_entity_type,
    ...(role.max_ttl > 0 && { max_ttl: role.max_ttl }),
    ...(role.period > 0 && { period: role.period }),
    ...(role.policies.length > 0 && { policies: [...role.token_policies] }),
    resolve_aws_unique_ids: role.resolve_aws_unique_ids,
    role_id: role.role_id,
    role_tag: role.role_tag,
    ...tokenReadData(role),
    ...(role.ttl > 0 && { ttl: role.ttl }),
  }
}

/** `role/:role`: read, create/update, delete. */
export const role: Endpoint = {
  path: 'role/:role',
  fields: ROLE_FIELDS,
  exists: (state, params) => state.roles.has(params.role!.toLowerCase()),
  operations: {
    read: ({ state, params }) => {
      const entry = state.roles.get(params.role!.toLowerCase())
      if (entry === undefined) return undefined
      let data = state.roleReads.get(entry)
      if (data === undefined) state.roleReads.set(entry, (data = new WrittenJson(sortedKeys(roleReadData(entry)))))
      return { data }
    },
    create: writeRole,
    update: writeRole,
    delete: ({ state, params }) => {
      state.roles.delete(params.role!.toLowerCase())
      return undefined
    },
  },
}

const listRoles: Endpoint['operations']['list'] = ({ state }) => listResult([...state.roles.keys()].sort())

/** LIST `role` and LIST `roles`: the lower-cased names, sorted. */
export const listRole: Endpoint = { path: 'role/', fields: {}, operations: { list: listRoles } }
export const listRolesPlural: Endpoint = { path: 'roles/', fields: {}, operations: { list: listRoles } }
