/** `role/:role/tag` (docs/reference/cloud-auth.md §3.8): a signed role tag to put on an instance. */
import { ROLE_TAG_VALUE_LIMIT } from '../limits.ts'
import { mountTable } from '../mounts/mount-table.ts'
import { MESSAGES } from '../auth-messages.ts'
import { isSubset, sanitizePolicies } from '../policies.ts'
import { ROLE_TAG_VERSION, signRoleTag } from '../role-tags/index.ts'
import type { Endpoint, OperationInput, OperationResult } from '../routing/endpoint.ts'
import { AuthRefusal, BAD_INPUT_500 } from '../auth-refusal.ts'

function createTag({ context, state, fields, params }: OperationInput): OperationResult {
  const name = params.role!.toLowerCase()
  if (name === '') throw new AuthRefusal(MESSAGES.missingRole)
  const role = state.roles.get(name)
  if (!role) throw new AuthRefusal(MESSAGES.tagRoleNotFound(name))
  if (role.role_tag === '') throw new AuthRefusal(MESSAGES.tagNotEnabled)
  const warnings: string[] = []
  const instanceId = (fields.string('instance_id') ?? '').toLowerCase()

  const given = fields.list('policies')
  const policies = given === undefined ? [] : sanitizePolicies(given)
  if (!isSubset(role.token_policies, policies)) warnings.push(MESSAGES.tagPoliciesNotSubset)
  // @note Policies given but empty yield a tag with only `default`, as the spec states; the real
  // service leaves such a tag without `p=`, so it carries the role's policies (docs/reference/cloud-auth.md §11.3).
  const tagPolicies = given !== undefined && policies.length === 0 ? ['default'] : policies

  const disallowReauthentication = fields.bool('disallow_reauthentication') ?? false
  const allowInstanceMigration = fields.bool('allow_instance_migration') ?? false
  if (allowInstanceMigration && !role.allow_instance_migration) warnings.push(MESSAGES.tagMigrationNotAllowed)
  if (disallowReauthentication && allowInstanceMigration) throw new AuthRefusal(MESSAGES.tagBothFlags)

  const maxTtl = fields.duration('max_ttl') ?? 0
  const { maxTtl: mountMaxTtl } = mountTable(context.emulator).leaseTtls(state.mount)
  if (maxTtl > mountMaxTtl) warnings.push(MESSAGES.tagMaxTtlAboveMount(maxTtl, mountMaxTtl))
  if (role.token_max_ttl !== 0 && maxTtl > role.token_max_ttl) {
    warnings.push(MESSAGES.tagMaxTtlAboveRole(maxTtl, role.token_max_ttl))
  }

  const value = signRoleTag(
    {
      version: ROLE_TAG_VERSION,
      nonce: context.emulator.random.bytes(8).toString('base64'),
      role: name,
      policies: tagPolicies,
      instance_id: instanceId,
      max_ttl: maxTtl,
      disallow_reauthentication: disallowReauthentication,
      allow_instance_migration: allowInstanceMigration,
    },
    role.hmac_key,
  )
  // @note The real service answers a 500 here; the service profile 400 (see deviations.ts).
  if (Buffer.byteLength(value) > ROLE_TAG_VALUE_LIMIT) throw new AuthRefusal(MESSAGES.tagValueTooLong, BAD_INPUT_500)
  return { data: { tag_key: role.role_tag, tag_value: value }, warnings }
}

/** `role/:role/tag`: POST/PUT only. */
export const roleTag: Endpoint = {
  path: 'role/:role/tag',
  fields: {
    role: 'string',
    instance_id: 'string',
    policies: 'commaList',
    max_ttl: 'duration',
    allow_instance_migration: 'bool',
    disallow_reauthentication: 'bool',
  },
  operations: { update: createTag },
}
