import type { RequestContext } from '../../../core/glossary.ts'
import type { RoleEntry, TokenType } from '../glossary.ts'
import { sanitizePolicies } from '../policies.ts'
import { tokenStore, type IssuedToken } from '../tokens/token-store.ts'
import { newTokenCredentials } from '../tokens/new-token.ts'
import { capPeriod, capTtl, effectiveMaxTtl } from '../tokens/ttl-cap.ts'
import { mountTable, type LeaseTtls, type MountTokenType } from '../mounts/mount-table.ts'
import { LoginError } from './login-error.ts'
import { LOGIN_MESSAGES } from './login-messages.ts'

/** What a login flow hands to token creation (the backend's `auth`, docs/reference/cloud-auth.md §1.9). */
export interface AuthRequest {
  mount: string
  role: RoleEntry
  /** The role's policies, or a role tag's. Sanitised here. */
  policies: readonly string[]
  /** The backend's max TTL in seconds (0 = none): ec2's shortest max, iam's role max. */
  maxTtl: number
  metadata: Record<string, string>
  /** The backend's display name (`''` for ec2, the friendly name for iam). */
  displayName: string
  aliasName: string
  aliasMetadata: Record<string, string>
  /** What renewal re-checks (the real service's internal data, never shown to the client). */
  internalData: Record<string, string>
}

/** A token ready to be issued: its `auth` object and warnings, stored only by `commit`. */
export interface PreparedAuth {
  auth: Record<string, unknown>
  warnings: string[]
  commit(): void
}

/**
 * Token creation as the core does it after a successful login (docs/reference/cloud-auth.md §1.9, docs/reference/cloud-auth.md §6): policies sanitised
 * (`root` refused), TTL from the role, capped by the effective max with the core's warnings, a service or
 * batch token from the emulator's random source, the entity of the alias. Nothing is stored until
 * `commit`, so a flow can still refuse after preparing.
 */
export function prepareAuth(context: RequestContext, request: AuthRequest): PreparedAuth {
  const { emulator } = context
  const { role } = request
  const policies = sanitisePolicies(request.policies, !role.token_no_default_policy)
  if (policies.includes('root')) throw new LoginError(LOGIN_MESSAGES.rootToken)
  const mounts = mountTable(emulator)
  const { ttl, warnings } = calculateTtl(mounts.leaseTtls(request.mount), role.token_ttl, role.token_period, request.maxTtl, role.token_explicit_max_ttl)
  const type = loginTokenType(role.token_type, mounts.get(request.mount)?.token_type ?? 'default-service')
  const store = tokenStore(emulator)
  const aliasKey = `${request.mount}\u0000${request.aliasName}`
  const entityId = store.entities.get(aliasKey)?.entity_id ?? emulator.random.uuid()
  const { id, accessor } = newTokenCredentials(emulator, type)
  const now = emulator.clock.nowMs()
  const metadata = sortedRecord(request.metadata)
  const token: IssuedToken = {
    id,
    accessor,
    type,
    policies,
    metadata,
    display_name: displayName(request.mount, request.displayName),
    entity_id: entityId,
    path: `auth/${request.mount}/login`,
    mount: request.mount,
    creation_time: now,
    creation_ttl: ttl,
    expire_time: ttl > 0 ? now + ttl * 1000 : null,
    explicit_max_ttl: role.token_explicit_max_ttl,
    period: role.token_period,
    num_uses: role.token_num_uses,
    renewable: type === 'service',
    bound_cidrs: [...role.token_bound_cidrs],
    internal_data: { ...request.internalData },
  }
  const auth: Record<string, unknown> = {
    client_token: id,
    accessor,
    policies,
    token_policies: policies,
    metadata,
    lease_duration: ttl,
    renewable: type === 'service',
    entity_id: entityId,
    token_type: type,
    orphan: true,
    mfa_requirement: null,
    num_uses: role.token_num_uses,
  }
  return {
    auth,
    warnings,
    commit() {
      store.save(token)
      store.entities.set({
        key: aliasKey,
        mount: request.mount,
        alias_name: request.aliasName,
        entity_id: entityId,
        metadata: sortedRecord(request.aliasMetadata),
      })
    },
  }
}

/** The core's sanitising: trimmed, lower-cased, de-duplicated, sorted, `default` added; `root` alone wins. */
export function sanitisePolicies(policies: readonly string[], addDefault: boolean): string[] {
  const sanitized = sanitizePolicies(policies)
  if (sanitized.includes('root') || !addDefault || sanitized.includes('default')) return sanitized
  return [...sanitized, 'default'].sort()
}

/**
 * The core's TTL rule: effective max = mount max lowered by the backend max and the explicit max; with a
 * period the TTL is the period, else the role TTL or the mount default; capped with the core's warning.
 */
export function calculateTtl(leases: LeaseTtls, ttl: number, period: number, backendMaxTtl: number, explicitMaxTtl: number): { ttl: number; warnings: string[] } {
  const maxTtl = effectiveMaxTtl(leases.maxTtl, backendMaxTtl, explicitMaxTtl)
  const warnings: string[] = []
  if (period > 0) return { ttl: capPeriod(period, maxTtl, warnings), warnings }
  return { ttl: capTtl(ttl > 0 ? ttl : leases.defaultTtl, maxTtl, warnings), warnings }
}

/**
 * The type of a login's token, as Vault's router settles it (`vault/router.go`): a mount tuned to `service`
 * or `batch` forces it; otherwise the role's, its `default` being the mount's default.
 */
function loginTokenType(role: TokenType, mount: MountTokenType): 'service' | 'batch' {
  if (mount === 'service' || mount === 'batch') return mount
  if (role === 'default') return mount === 'default-batch' ? 'batch' : 'service'
  return role
}

/** The token's display name: the mount path with `/` turned into `-`, then the backend's name. */
function displayName(mount: string, backendName: string): string {
  return `${mount.replace(/\//g, '-')}-${backendName}`.replace(/-$/, '')
}

function sortedRecord(record: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const key of Object.keys(record).sort()) out[key] = record[key]!
  return out
}
