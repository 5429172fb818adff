/** The emulator's own parts of a snapshot: the clock, the random source's position and the faults. */
import type { ClockState } from '../clock.ts'
import { checkSavedFault, FaultError } from '../faults.ts'
import type { DomainCodec } from './domain-codec.ts'
import * as shape from './shape.ts'

const frozenClock = shape.object<{ frozen: true; now_ms: number }>({ frozen: () => true, now_ms: shape.epochMs })
const runningClock = shape.object<{ frozen: false; offset_ms: number }>({ frozen: () => false, offset_ms: shape.integer })

const clockShape: shape.Shape<ClockState> = (value, path) => {
  const frozen = typeof value === 'object' && value !== null ? (value as { frozen?: unknown }).frozen : undefined
  if (frozen === true) return frozenClock(value, path)
  if (frozen === false) return runningClock(value, path)
  throw new shape.SnapshotError(`Failed to read the snapshot: ${path}.frozen must be true or false`)
}

export const clockCodec: DomainCodec = {
  name: 'clock',
  save: (emulator) => emulator.clock.state(),
  *parse(value, path) {
    const state = clockShape(value, path)
    // A running clock is read now: it must show what `POST /_doppel/clock` could set.
    if (!state.frozen) shape.epochMs(Date.now() + state.offset_ms, `${path}.offset_ms (added to the wall clock)`)
    return (emulator) => emulator.clock.restore(state)
  },
}

/** Four 32-bit words. */
export const randomPosition: shape.Shape<number[]> = (value, path) => {
  const words = shape.array(shape.integer)(value, path)
  if (words.length !== 4 || words.some((word) => word < 0 || word > 0xffffffff)) {
    throw new shape.SnapshotError(`Failed to read the snapshot: ${path} must be four 32-bit words`)
  }
  return words
}

export const randomCodec: DomainCodec = {
  name: 'random',
  save: (emulator) => ({ position: emulator.random.position(), salt: emulator.random.salt }),
  *parse(value, path) {
    // A snapshot older than the salt leaves the instance's own.
    const { position, salt } = shape.object<{ position: number[] | null; salt: string | undefined }>({
      position: shape.nullable(randomPosition),
      salt: shape.optional(shape.string),
    })(value, path)
    return (emulator) => {
      emulator.random.restorePosition(position)
      if (salt !== undefined) emulator.random.restoreSalt(salt)
    }
  },
}

export const faultsCodec: DomainCodec = {
  name: 'faults',
  save: (emulator) => emulator.faults.list(),
  *parse(value, path) {
    const faults = yield* shape.stepsOf(shape.keyedRecords((item, at) => {
      try {
        return checkSavedFault(item)
      } catch (error) {
        if (error instanceof FaultError) throw new shape.SnapshotError(`Failed to read the snapshot: ${at}: ${error.message}`)
        throw error
      }
    }, (fault) => fault.id))(value, path)
    return (emulator) => emulator.faults.restore(faults)
  },
}
