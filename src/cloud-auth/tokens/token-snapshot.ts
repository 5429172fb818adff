/** The token store's part of a snapshot: issued tokens and entity aliases. */
import type { DomainCodec } from '../../core/snapshot/domain-codec.ts'
import * as shape from '../../core/snapshot/shape.ts'
import { TOKENS_DOMAIN, tokenStore, type EntityAlias, type IssuedToken, type TokenStore } from './token-store.ts'

const strings = shape.array(shape.string)
const metadata = shape.dictionary(shape.string)

const tokenShape = shape.object<IssuedToken>({
  id: shape.string,
  accessor: shape.string,
  type: shape.literal('service', 'batch'),
  policies: strings,
  metadata,
  display_name: shape.string,
  entity_id: shape.string,
  path: shape.string,
  mount: shape.string,
  creation_time: shape.integer,
  creation_ttl: shape.integer,
  expire_time: shape.nullable(shape.integer),
  explicit_max_ttl: shape.integer,
  period: shape.integer,
  num_uses: shape.integer,
  renewable: shape.boolean,
  bound_cidrs: strings,
  internal_data: metadata,
})

const entityShape = shape.object<EntityAlias>({
  key: shape.string,
  mount: shape.string,
  alias_name: shape.string,
  entity_id: shape.string,
  metadata,
})

interface SavedTokens {
  tokens: IssuedToken[]
  entities: EntityAlias[]
}

const tokensShape = shape.object<SavedTokens>({
  tokens: shape.keyedRecords(tokenShape, (t) => t.id),
  entities: shape.keyedRecords(entityShape, (e) => e.key),
})

export const tokenSnapshotCodec: DomainCodec = {
  name: 'tokens',
  save(emulator) {
    const store = emulator.existingDomain<TokenStore>(TOKENS_DOMAIN)
    return store && { tokens: [...store.tokens.values()], entities: [...store.entities.values()] }
  },
  parse(value, path) {
    const saved = tokensShape(value, path)
    return (emulator) => {
      const store = tokenStore(emulator)
      for (const token of saved.tokens) store.tokens.set(token)
      for (const entity of saved.entities) store.entities.set(entity)
    }
  },
}
