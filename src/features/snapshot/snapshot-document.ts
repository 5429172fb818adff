/**
 * The snapshot document: one versioned JSON object holding everything an emulator instance needs to
 * answer exactly as it did: the clock, the random source's position, the faults and every domain's state
 * (each domain writes and reads its own part; the list is `domainCodecs()`).
 */
import type { Emulator } from '../../core/emulator.ts'
import { clockCodec, faultsCodec, randomCodec, type DomainCodec, SnapshotError, shape } from '../../core/snapshot/index.ts'
import { checkFaultRoom, FaultError } from '../../core/faults.ts'
import { loopYielder } from '../../core/yield-to-loop.ts'
import { getFakeCloud } from '../../services/fake-cloud/fake-cloud-api.ts'
import { SERVICES } from '../doppel/index.ts'
import { fakerSnapshotCodec } from '../fixtures/faker-snapshot.ts'

export const SNAPSHOT_VERSION = 1

/**
 * Every domain that keeps state, by its name in the document: each service's, then the fixtures' faker.
 * Read on use: the service list and this module load in one cycle (`Doppel` takes snapshots).
 */
export function domainCodecs(): readonly DomainCodec[] {
  return [...SERVICES.flatMap((service) => service.codecs), fakerSnapshotCodec]
}

/** The emulator's own parts, at the top level of the document. */
const CORE_CODECS: readonly DomainCodec[] = [clockCodec, randomCodec, faultsCodec]

export interface DoppelSnapshot {
  doppel_snapshot: typeof SNAPSHOT_VERSION
  /** Wall time when it was taken (informational). */
  taken_at: string
  clock: unknown
  random: unknown
  faults: unknown
  domains: Record<string, unknown>
}

/** The whole state of one emulator instance as plain JSON (secrets included). */
export function takeSnapshot(emulator: Emulator): DoppelSnapshot {
  const domains: Record<string, unknown> = {}
  for (const codec of domainCodecs()) {
    const saved = codec.save(emulator)
    if (saved !== undefined) domains[codec.name] = saved
  }
  return {
    doppel_snapshot: SNAPSHOT_VERSION,
    taken_at: new Date().toISOString(),
    clock: clockCodec.save(emulator),
    random: randomCodec.save(emulator),
    faults: faultsCodec.save(emulator),
    domains,
  }
}

const TOP_LEVEL = new Set(['doppel_snapshot', 'taken_at', 'clock', 'random', 'faults', 'domains'])

function objectAt(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SnapshotError(`Failed to read the snapshot: ${path} must be an object`)
  }
  return value as Record<string, unknown>
}

/**
 * Checks a whole snapshot without touching any emulator; throws SnapshotError naming the first problem.
 * Returns what replaces an emulator's state with it. In steps: yields between the records of large
 * collections (each checked record, or undefined), so that a caller may pause there.
 */
function* parseSnapshotSteps(value: unknown): Generator<object | undefined, (emulator: Emulator) => void> {
  const document = objectAt(value, 'the snapshot')
  if (!Object.hasOwn(document, 'doppel_snapshot')) throw new SnapshotError('Failed to read the snapshot: it has no "doppel_snapshot" version')
  if (document.doppel_snapshot !== SNAPSHOT_VERSION) {
    throw new SnapshotError(
      `Failed to read the snapshot: version ${JSON.stringify(document.doppel_snapshot)} is not supported (this doppel reads version ${SNAPSHOT_VERSION})`,
    )
  }
  for (const key of Object.keys(document)) {
    if (!TOP_LEVEL.has(key)) throw new SnapshotError(`Failed to read the snapshot: "${key}" is not a known field`)
  }
  if (document.taken_at !== undefined && typeof document.taken_at !== 'string') {
    throw new SnapshotError('Failed to read the snapshot: taken_at must be a string')
  }
  const coreLoads: ((emulator: Emulator) => void)[] = []
  for (const codec of CORE_CODECS) {
    if (!Object.hasOwn(document, codec.name)) throw new SnapshotError(`Failed to read the snapshot: "${codec.name}" is missing`)
    coreLoads.push(yield* codec.parse(document[codec.name], codec.name))
  }
  const loads: ((emulator: Emulator) => void)[] = []
  const domains = objectAt(document.domains, 'domains')
  const known = new Map(domainCodecs().map((codec) => [codec.name, codec]))
  for (const name of Object.keys(domains)) {
    const codec = known.get(name)
    if (codec === undefined) throw new SnapshotError(`Failed to read the snapshot: domains.${name} is not a known domain`)
    loads.push(yield* codec.parse(domains[name], `domains.${name}`))
  }
  // The emulator's own parts last: creating a domain may draw from the random source.
  loads.push(...coreLoads)
  return (emulator) => {
    for (const load of loads) load(emulator)
  }
}

/** `parseSnapshotSteps` run straight through. */
export function parseSnapshot(value: unknown): (emulator: Emulator) => void {
  return shape.runSteps(parseSnapshotSteps(value))
}

/**
 * Replaces an emulator's state with a snapshot, checked whole first: a bad one throws SnapshotError and
 * changes nothing. The journal stays; `reset()` still returns to the seeded start.
 */
export function restoreSnapshot(emulator: Emulator, value: unknown): void {
  install(emulator, value, parseSnapshot(value), JSON.stringify(value).length)
}

/**
 * `restoreSnapshot` for the server: the same checks, run in slices with turns of the event loop in between
 * (and each checked record measured for the store meanwhile), then the state replaced in one piece. Requests
 * meanwhile see the old state, and writes they make are replaced with it. `jsonLength` is the document's
 * length as `JSON.stringify` writes it (measured where it was parsed).
 */
export async function restoreSnapshotInSlices(emulator: Emulator, value: unknown, jsonLength: number): Promise<void> {
  const pause = loopYielder()
  const sizes = new Map<object, number>()
  const steps = parseSnapshotSteps(value)
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return install(emulator, value, step.value, jsonLength, sizes)
    if (step.value) sizes.set(step.value, JSON.stringify(step.value).length)
    await pause()
  }
}

/** The checks across the document, then the state replaced. */
function install(emulator: Emulator, value: unknown, load: (emulator: Emulator) => void, jsonLength: number, sizes?: ReadonlyMap<object, number>): void {
  try {
    // The faults hold the shared cap as `POST /_doppel/faults` does (parseSnapshot has checked they are an array).
    checkFaultRoom(emulator.faults, (value as { faults: unknown[] }).faults.length)
  } catch (error) {
    if (error instanceof FaultError) throw new SnapshotError(`Failed to read the snapshot: faults: ${error.message}`)
    throw error
  }
  // Every record is in the document: one no larger than the limit cannot overflow it half way through the load.
  if (jsonLength > emulator.store.maxBytes) {
    throw new SnapshotError(`Failed to read the snapshot: it is larger than the state's limit of ${emulator.store.maxBytes} bytes`)
  }
  // IMDS listeners belong to the state being replaced.
  void getFakeCloud(emulator).close()
  emulator.replaceState(load, sizes)
}
