import { unknownField } from '../../../core/did-you-mean.ts'
import { cloudErrors } from '../cloud-errors.ts'
import type { AccessKeyRecord, CloudState } from '../cloud-state.ts'
import { cloudPath } from '../urls.ts'

/**
 * Provider eventual consistency (opt-in, emulator-defined): IAM is eventually consistent, so a key made
 * by CreateAccessKey may be refused for a few seconds (the spec's rotate-root: "later calls may fail for a
 * few seconds"). With a delay set, a new key answers `InvalidClientTokenId` until that much emulator time
 * has passed. Default 0: new keys work at once. A reset turns it off.
 */
export interface ConsistencySettings {
  /** Seconds a key made by CreateAccessKey stays unusable; 0 (the default) to 3600. */
  key_propagation_seconds: number
}

/** The longest propagation delay accepted, by the control API and in snapshots. */
export const MAX_KEY_PROPAGATION_SECONDS = 3600

export function consistencySettings(state: CloudState): ConsistencySettings {
  return { key_propagation_seconds: state.keyPropagationSeconds }
}

/** Sets the delay; refuses anything but an integer number of seconds from 0 to 3600. */
export function setConsistency(state: CloudState, input: unknown): ConsistencySettings {
  const value = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : undefined
  const unknown = value === undefined ? undefined : unknownField(value, ['key_propagation_seconds'])
  if (unknown !== undefined) throw cloudErrors.badInput(`Failed to set the consistency settings: ${unknown}`)
  const seconds = value?.key_propagation_seconds
  if (value === undefined || !Number.isInteger(seconds) || (seconds as number) < 0 || (seconds as number) > MAX_KEY_PROPAGATION_SECONDS) {
    throw cloudErrors.badInput(`Failed to set the consistency settings: "key_propagation_seconds" must be an integer from 0 to ${MAX_KEY_PROPAGATION_SECONDS}`)
  }
  state.keyPropagationSeconds = seconds as number
  return consistencySettings(state)
}

/** When a key just created becomes usable, or undefined when at once. */
export function usableFromMs(state: CloudState): number | undefined {
  return state.keyPropagationSeconds > 0 ? state.emulator.clock.nowMs() + state.keyPropagationSeconds * 1000 : undefined
}

/** Refuses a key that has not propagated yet, as AWS refuses an unknown one. */
export function checkPropagated(state: CloudState, key: AccessKeyRecord): void {
  if (key.usable_from_ms !== undefined && state.emulator.clock.nowMs() < key.usable_from_ms) {
    throw cloudErrors.invalidClientTokenId().explain({
      rule: 'key propagation',
      seen: `${key.access_key_id}, not usable before ${new Date(key.usable_from_ms).toISOString()}`,
      hint: `advance the clock, or set the propagation delay to 0 (${cloudPath('consistency')})`,
    })
  }
}
