/**
 * Tidying the two lists (docs/reference/cloud-auth.md §8): entries whose expiration plus the safety buffer has passed, by
 * the emulator's clock, are removed. Runs to completion before the caller answers.
 */
import { DEFAULT_SAFETY_BUFFER, PERIODIC_TIDY_INTERVAL_MS } from '../limits.ts'
import type { AuthState } from '../state.ts'

interface Expiring {
  expiration_time: number
}

function tidy<T extends Expiring>(collection: { deleteWhere(drop: (entry: T) => boolean): number }, nowMs: number, safetyBufferSeconds: number): number {
  const before = nowMs - safetyBufferSeconds * 1000
  return collection.deleteWhere((entry) => before > entry.expiration_time)
}

/** Removes identity access list entries past expiration + buffer; returns how many. */
export function tidyAccessList(state: AuthState, nowMs: number, safetyBufferSeconds: number): number {
  return tidy(state.accessList, nowMs, safetyBufferSeconds)
}

/** Removes role tag deny list entries past expiration + buffer; returns how many. */
export function tidyDenyList(state: AuthState, nowMs: number, safetyBufferSeconds: number): number {
  return tidy(state.denyList, nowMs, safetyBufferSeconds)
}

/**
 * The periodic tidy, driven lazily by requests: it runs on the first request to the mount and then at
 * most once an hour of emulator time, unless a list's tidy config disables it.
 * @note With no tidy config, both lists use the spec's 72h buffer; the real service uses 180 days for
 * the deny list (see deviations.ts).
 */
export function runPeriodicTidy(state: AuthState, nowMs: number): void {
  if (state.nextPeriodicTidyMs !== undefined && nowMs < state.nextPeriodicTidyMs) return
  state.nextPeriodicTidyMs = nowMs + PERIODIC_TIDY_INTERVAL_MS
  const { accessList, denyList } = state.tidyConfig
  if (!denyList?.disable_periodic_tidy) tidyDenyList(state, nowMs, denyList?.safety_buffer ?? DEFAULT_SAFETY_BUFFER)
  if (!accessList?.disable_periodic_tidy) {
    tidyAccessList(state, nowMs, accessList?.safety_buffer ?? DEFAULT_SAFETY_BUFFER)
  }
}
