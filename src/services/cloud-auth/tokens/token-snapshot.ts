/** The token store's part of a snapshot: issued tokens, entity aliases and token roles. */
import { shape, table, tables, tablesCodec } from '../../../core/snapshot/index.ts'
import type { TokenRole } from './token-roles.ts'
import { TOKENS_DOMAIN, tokenStore, type EntityAlias, type IssuedToken, type TokenStore } from './token-store.ts'

const strings = shape.array(shape.string)
const metadata = shape.dictionary(shape.string)

const tokenShape = shape.object<IssuedToken>({
  id: shape.string,
  parent: shape.optional(shape.string),
  role: shape.optional(shape.string),
  accessor: shape.string,
  type: shape.literal('service', 'batch'),
  policies: strings,
  metadata: shape.nullable(metadata),
  display_name: shape.string,
  entity_id: shape.string,
  path: shape.string,
  mount: shape.string,
  creation_time: shape.epochMs,
  creation_ttl: shape.seconds,
  granted_ttl: shape.optional(shape.seconds),
  expire_time: shape.nullable(shape.epochMs),
  explicit_max_ttl: shape.seconds,
  period: shape.seconds,
  last_renewal_time: shape.optional(shape.epochMs),
  num_uses: shape.integerIn(0, Number.MAX_SAFE_INTEGER),
  renewable: shape.boolean,
  bound_cidrs: strings,
  internal_data: metadata,
})
const tokenTable = table((store: TokenStore) => store.tokens, tokenShape, (t) => t.id)

const entityShape = shape.object<EntityAlias>({
  key: shape.string,
  mount: shape.string,
  alias_name: shape.string,
  entity_id: shape.string,
  metadata,
})
const entityTable = table((store: TokenStore) => store.entities, entityShape, (e) => e.key)

const roleShape = shape.object<TokenRole>({
  name: shape.string,
  allowed_policies: strings,
  disallowed_policies: strings,
  allowed_policies_glob: strings,
  disallowed_policies_glob: strings,
  orphan: shape.boolean,
  path_suffix: shape.string,
  renewable: shape.boolean,
  token_type: shape.literal('default-service', 'default-batch', 'service', 'batch'),
  allowed_entity_aliases: shape.nullable(strings),
  period: shape.seconds,
  explicit_max_ttl: shape.seconds,
  bound_cidrs: strings,
  token_period: shape.seconds,
  token_explicit_max_ttl: shape.seconds,
  token_bound_cidrs: strings,
  token_num_uses: shape.integerIn(0, Number.MAX_SAFE_INTEGER),
  token_no_default_policy: shape.boolean,
  token_ttl: shape.seconds,
  token_max_ttl: shape.seconds,
  token_policies: strings,
})
const roleTable = table((store: TokenStore) => store.roles, roleShape, (r) => r.name)

export const tokenSnapshotCodec = tablesCodec({
  name: 'tokens',
  tables: tables({ tokens: tokenTable, entities: entityTable, roles: roleTable }),
  existing: (emulator) => emulator.existingDomain<TokenStore>(TOKENS_DOMAIN),
  state: tokenStore,
  check(saved, path) {
    // Accessors are drawn at random and looked up by value: two tokens sharing one cannot both be reached.
    const seen = new Set<string>()
    saved.tokens.forEach(({ accessor }, index) => {
      if (accessor === '') return
      if (seen.has(accessor)) throw new shape.SnapshotError(`Failed to read the snapshot: ${path}.tokens[${index}].accessor repeats "${accessor}"`)
      seen.add(accessor)
    })
  },
})
