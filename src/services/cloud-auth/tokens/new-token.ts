import type { Emulator } from '../../../core/emulator.ts'
import { ALPHANUMERIC } from '../../../core/random.ts'

/** A new token's id and accessor from the emulator's random source: a service token's `hvs.` id and accessor, a batch token's `hvb.` id and none. */
export function newTokenCredentials(emulator: Emulator, type: 'service' | 'batch'): { id: string; accessor: string } {
  if (type === 'batch') return { id: `hvb.${emulator.random.string(138, ALPHANUMERIC)}`, accessor: '' }
  return { id: `hvs.${emulator.random.string(24, ALPHANUMERIC)}`, accessor: emulator.random.string(24, ALPHANUMERIC) }
}
