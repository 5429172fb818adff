import type { Emulator } from '../../../core/emulator.ts'
import { ALPHANUMERIC } from '../../../core/random.ts'
import { formatRfc3339Nano } from '../time-format.ts'
import type { IssuedToken } from './token-store.ts'

/** A stored token's data, as a lookup answers it (`vault/token_store.go` `handleLookup`). */
export function tokenData(token: IssuedToken, nowMs: number): Record<string, unknown> {
  return {
    accessor: token.accessor,
    creation_time: Math.floor(token.creation_time / 1000),
    creation_ttl: token.creation_ttl,
    display_name: token.display_name,
    entity_id: token.entity_id,
    expire_time: token.expire_time === null ? null : formatRfc3339Nano(token.expire_time),
    explicit_max_ttl: token.explicit_max_ttl,
    id: token.id,
    issue_time: formatRfc3339Nano(Math.floor(token.creation_time / 1000) * 1000),
    // only once renewed, as a real server answers (OpenBao 2.7.2 with Vault's method, scripts/real-server.sh)
    ...(token.last_renewal_time !== undefined && {
      last_renewal: formatRfc3339Nano(token.last_renewal_time),
      last_renewal_time: Math.floor(token.last_renewal_time / 1000),
    }),
    meta: token.metadata,
    num_uses: token.num_uses,
    orphan: token.parent === undefined,
    path: token.path,
    policies: token.policies,
    renewable: token.renewable,
    ttl: token.expire_time === null ? 0 : remainingSeconds(token.expire_time, nowMs),
    type: token.type,
    ...(token.period > 0 && { period: token.period }),
    ...(token.role !== undefined && { role: token.role }),
    ...(token.bound_cidrs.length > 0 && { bound_cidrs: token.bound_cidrs }),
  }
}

/**
 * A root token as the real dev server holds one given its id (`-dev-root-token-id`): made at start through
 * `auth/token/create` (display name `token`, that path, an accessor, the start as its creation and issue
 * time; seen on the real server). Its accessor is fixed for the instance (`Random.fixed`), as the real
 * token's is for the server's life.
 */
export function rootTokenData(id: string, emulator: Emulator): Record<string, unknown> {
  const startMs = emulator.clock.startMs
  return {
    accessor: rootTokenAccessor(id, emulator),
    creation_time: Math.floor(startMs / 1000),
    creation_ttl: 0,
    display_name: 'token',
    entity_id: '',
    expire_time: null,
    explicit_max_ttl: 0,
    id,
    issue_time: formatRfc3339Nano(startMs),
    meta: null,
    num_uses: 0,
    orphan: true,
    path: 'auth/token/create',
    policies: ['root'],
    renewable: false,
    ttl: 0,
    type: 'service',
  }
}

/** A configured root token's accessor: 24 characters, fixed for the instance. */
export function rootTokenAccessor(id: string, emulator: Emulator): string {
  const hash = emulator.random.fixed(`root token accessor\0${id}`)
  let accessor = ''
  for (let i = 0; i < 24; i++) accessor += ALPHANUMERIC[hash[i]! % ALPHANUMERIC.length]
  return accessor
}

/** The configured root token whose accessor this is, or undefined. */
export function rootTokenByAccessor(accessor: string, emulator: Emulator): string | undefined {
  for (const id of emulator.rootTokens) if (rootTokenAccessor(id, emulator) === accessor) return id
  return undefined
}

/** Seconds left, as the real service computes it: now rounded to the second, the difference truncated. */
function remainingSeconds(expireMs: number, nowMs: number): number {
  return Math.max(0, Math.trunc((expireMs - Math.round(nowMs / 1000) * 1000) / 1000))
}
