import type { Emulator } from '../emulator.ts'

/**
 * How one domain writes its state into a snapshot and reads it back. Each domain keeps its codec next to
 * its state code; `src/snapshot/` lists them.
 */
export interface DomainCodec {
  /** The domain's key under `domains` in the snapshot document. */
  name: string
  /** The domain's state as plain JSON; undefined when it holds nothing. May create the domain, never change it. */
  save(emulator: Emulator): unknown
  /**
   * Checks a saved value without touching any emulator (throws SnapshotError naming the path) and returns
   * what puts it into an emulator whose domains were just cleared. That step cannot fail. In steps (see
   * `shape.Steps`): a large domain yields between its records.
   */
  parse(value: unknown, path: string): Generator<object | undefined, (emulator: Emulator) => void>
}
