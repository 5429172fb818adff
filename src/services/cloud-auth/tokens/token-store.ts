import type { Emulator, ExpiringDomain } from '../../../core/emulator.ts'
import { ExpiryQueue } from '../../../core/expiry-queue.ts'
import type { KeyedCollection } from '../../../core/store.ts'
import type { TokenRole } from './token-roles.ts'

/** A token issued by a login or created through `auth/token/create`, as the emulator records it (inspectable through `emulator.store`). */
export interface IssuedToken {
  id: string
  /** The token that created it; absent for an orphan (every login's token). Its revocation revokes this one. */
  parent?: string
  /** The token role it was created against, whose settings its renewals follow. */
  role?: string
  /** Empty for batch tokens. */
  accessor: string
  type: 'service' | 'batch'
  /** Sanitised token policies (with `default` unless the role says otherwise). */
  policies: string[]
  /** The login's metadata, or what a create was given (null: none given). */
  metadata: Record<string, string> | null
  display_name: string
  entity_id: string
  /** `auth/<mount>/login`, or the token store's path that created it (`auth/token/create`, `…/create-orphan`). */
  path: string
  /** The login's mount, or `token` for a token the token store created. */
  mount: string
  /** Epoch ms. */
  creation_time: number
  /** The TTL granted at login, seconds. */
  creation_ttl: number
  /**
   * A created token's TTL of its last grant (creation or renewal), seconds: what a renewal without an
   * increment grants again. Absent for a login's token (its role says) and until a created token is renewed.
   */
  granted_ttl?: number
  /** Epoch ms; null for a token without expiry. */
  expire_time: number | null
  explicit_max_ttl: number
  period: number
  /** Epoch ms of the last renewal; absent until the token is renewed. */
  last_renewal_time?: number
  /** Uses left; 0 means unlimited. */
  num_uses: number
  renewable: boolean
  /** Addresses and CIDR blocks the token may be used from (empty: anywhere). */
  bound_cidrs: string[]
  /**
   * What renewal re-checks, as the login recorded it: `auth_type` always; ec2: `instance_id`, `region`,
   * `account_id`; iam: `role_name`, `role_id`, `canonical_arn`, `client_user_id`, `inferred_entity_id`,
   * `inferred_aws_region`, `account_id`.
   */
  internal_data: Record<string, string>
}

/** The identity entity behind an alias: one per (mount, alias name), created at first login. */
export interface EntityAlias {
  key: string
  mount: string
  alias_name: string
  entity_id: string
  /** The alias metadata of the latest login. */
  metadata: Record<string, string>
}

/**
 * Issued tokens and entity aliases of one emulator instance. Tokens past their expiry are revoked and
 * removed as the real service's expiration manager does: on access, and by sweeps as time moves, which
 * visit only what has expired. Entities stay, as in the real service.
 */
export class TokenStore implements ExpiringDomain {
  readonly tokens: KeyedCollection<IssuedToken>
  readonly entities: KeyedCollection<EntityAlias>
  /** The token store's roles (`auth/token/roles/<name>`), by name as given. */
  readonly roles: KeyedCollection<TokenRole>
  readonly #emulator: Emulator
  readonly #expiries = new ExpiryQueue()
  // Why recent tokens went, for the journal's explanation of a refused token; bounded, oldest dropped.
  readonly #gone = new Map<string, TokenGone>()

  constructor(emulator: Emulator) {
    this.#emulator = emulator
    this.tokens = emulator.store.collection('tokens', {
      key: (token: IssuedToken) => token.id,
      indexes: { accessor: (token: IssuedToken) => token.accessor || undefined, parent: (token: IssuedToken) => token.parent },
    })
    this.entities = emulator.store.collection('token-entities', { key: (alias: EntityAlias) => alias.key })
    this.roles = emulator.store.collection('token-roles', { key: (role: TokenRole) => role.name })
  }

  /** Stores a new or changed token (the only way tokens are written, so every expiry is tracked). */
  save(token: IssuedToken): void {
    this.tokens.set(token)
    if (token.expire_time !== null) this.#expiries.push(token.id, token.expire_time)
  }

  /** Removes every token expired by `nowMs`; entries of tokens renewed or revoked since are skipped. */
  sweepExpired(nowMs: number): void {
    this.#expiries.drain(nowMs, (id, expiresMs) => {
      const token = this.tokens.get(id)
      if (token !== undefined && token.expire_time === expiresMs) this.#remove(token, 'expired')
    })
  }

  /** Removes a token and the tokens it created, theirs too, remembering why (`revoked` by revoke-self, `expired`, `used up`). */
  remove(token: IssuedToken, reason: TokenGone['reason']): void {
    this.#remove(token, reason)
  }

  /**
   * Removes every token with a lease under `prefix` (ending in `/`), and the tokens they created: a token's
   * lease is its path and an id. Batch tokens have none, and stay.
   */
  removeUnderPrefix(prefix: string, reason: 'revoked' | 'revoked with its mount' = 'revoked'): void {
    const under = [...this.tokens.values()].filter((token) => token.type !== 'batch' && `${token.path}/`.startsWith(prefix))
    for (const token of under) if (this.tokens.has(token.id)) this.#remove(token, reason)
  }

  /** Removes a token alone (`revoke-orphan`): the tokens it created become orphans. */
  removeLeavingOrphans(token: IssuedToken): void {
    for (const child of this.tokens.findBy('parent', token.id)) {
      const { parent: _, ...orphan } = child
      this.tokens.set(orphan)
    }
    this.#remove(token, 'revoked')
  }

  /** Why a token this store no longer holds went, while it remembers; undefined for one it never issued. */
  gone(id: string): TokenGone | undefined {
    return this.#gone.get(id)
  }

  // The real token store revokes the tree whichever way a token goes (revoked, expired, used up): its
  // descendants go with it, without a stack however deep the tree.
  #remove(token: IssuedToken, reason: TokenGone['reason']): void {
    const nowMs = this.#emulator.clock.nowMs()
    this.#forget(token, reason, reason === 'expired' && token.expire_time !== null ? token.expire_time : nowMs)
    const pending = [token.id]
    for (let parent = pending.pop(); parent !== undefined; parent = pending.pop()) {
      for (const child of this.tokens.findBy('parent', parent)) {
        this.#forget(child, 'revoked with its parent', nowMs)
        pending.push(child.id)
      }
    }
  }

  #forget(token: IssuedToken, reason: TokenGone['reason'], atMs: number): void {
    this.tokens.delete(token.id)
    if (this.#gone.size >= GONE_LIMIT) this.#gone.delete(this.#gone.keys().next().value!)
    this.#gone.set(token.id, { reason, atMs })
  }

  /** A live token: known and not expired on the emulator clock. Expired ones are dropped on sight. */
  lookup(id: string): IssuedToken | undefined {
    const token = this.tokens.get(id)
    if (!token) return undefined
    if (token.expire_time !== null && token.expire_time <= this.#emulator.clock.nowMs()) {
      this.#remove(token, 'expired')
      return undefined
    }
    return token
  }

  /** The live token with this accessor. */
  lookupByAccessor(accessor: string): IssuedToken | undefined {
    const token = this.tokens.findOneBy('accessor', accessor)
    return token && this.lookup(token.id)
  }

  /** Counts one use of a limited-use token; the last use revokes it. Returns the uses left (0 = unlimited). */
  use(token: IssuedToken): number {
    if (token.num_uses === 0) return 0
    const left = token.num_uses - 1
    if (left === 0) this.#remove(token, 'used up')
    else this.save({ ...token, num_uses: left })
    return left
  }
}

/** Why a token is no longer held, and since when (its expiry time for an expired one). */
export interface TokenGone {
  reason: 'expired' | 'revoked' | 'used up' | 'revoked with its parent' | 'revoked with its mount'
  atMs: number
}

const GONE_LIMIT = 1024

export const TOKENS_DOMAIN = 'tokens'

/** The token store of an emulator instance. */
export function tokenStore(emulator: Emulator): TokenStore {
  return emulator.domain(TOKENS_DOMAIN, () => new TokenStore(emulator))
}
