import { MESSAGES } from '../auth-messages.ts'

/**
 * The core's TTL capping (docs/reference/cloud-auth.md §1.9, docs/reference/cloud-auth.md §7), shared by token creation at login and by renewal: the
 * effective max is the mount max lowered by the backend's max and the token's explicit max (each when > 0).
 */
export function effectiveMaxTtl(mountMaxTtl: number, backendMaxTtl: number, explicitMaxTtl: number): number {
  let maxTtl = mountMaxTtl
  if (backendMaxTtl > 0 && backendMaxTtl < maxTtl) maxTtl = backendMaxTtl
  if (explicitMaxTtl > 0 && explicitMaxTtl < maxTtl) maxTtl = explicitMaxTtl
  return maxTtl
}

/** A period above `max` becomes `max`, with the core's warning added to `warnings`. */
export function capPeriod(period: number, max: number, warnings: string[]): number {
  if (period <= max) return period
  warnings.push(MESSAGES.periodCapped(period, max))
  return max
}

/** A TTL above `max` becomes `max`, with the core's warning added to `warnings`. */
export function capTtl(ttl: number, max: number, warnings: string[]): number {
  if (ttl <= max) return ttl
  warnings.push(MESSAGES.ttlCapped(ttl, max))
  return max
}
