import type { LeaseTtls } from '../mounts/mount-table.ts'
import { AuthRefusal, BAD_INPUT_500 } from '../auth-refusal.ts'
import { TOKEN_MESSAGES } from './token-messages.ts'
import { capPeriod, capTtl, effectiveMaxTtl } from './ttl-cap.ts'

/** What the backend's re-check hands back to the core: the role's current TTL settings (seconds). */
export interface RenewalBounds {
  ttl: number
  maxTtl: number
  period: number
  /** The mount's lease TTLs. */
  leases: LeaseTtls
}

/** The renewed lifetime: `ttl` seconds from now, with the core's capping warnings. */
export interface RenewalTtl {
  ttl: number
  warnings: string[]
}

/**
 * The core's TTL rule at renewal: the effective max is the mount max lowered by the backend max and the
 * token's explicit max; a period renews for the period (capped, and bounded by issue + explicit max), else
 * for the increment, the role TTL or the mount default, bounded by issue + effective max. Times are
 * truncated to the second, as the real service does. Past the bound, renewal is refused (a 500 in the real
 * service, 400 in the service profile).
 */
export function renewalTtl(bounds: RenewalBounds, increment: number, explicitMaxTtl: number, issuedMs: number, nowMs: number): RenewalTtl {
  const now = Math.floor(nowMs / 1000)
  const start = Math.floor(issuedMs / 1000)
  const maxTtl = effectiveMaxTtl(bounds.leases.maxTtl, bounds.maxTtl, explicitMaxTtl)
  const warnings: string[] = []
  let ttl: number
  let maxValid: number | undefined
  if (bounds.period > 0) {
    ttl = capPeriod(bounds.period, maxTtl, warnings)
    if (explicitMaxTtl > 0) maxValid = start + explicitMaxTtl
  } else {
    ttl = increment > 0 ? increment : bounds.ttl > 0 ? bounds.ttl : bounds.leases.defaultTtl
    maxValid = start + maxTtl
  }
  if (maxValid !== undefined) {
    const left = maxValid - now
    if (left <= 0) {
      throw new AuthRefusal(TOKEN_MESSAGES.pastMaxTtl, BAD_INPUT_500).explain({
        rule: 'token max_ttl',
        seen: `${now - start}s since the token was issued`,
        expected: `under ${maxValid - start}s`,
        hint: 'log in again for a new token',
      })
    }
    ttl = capTtl(ttl, left, warnings)
  }
  return { ttl, warnings }
}
