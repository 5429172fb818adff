import type { Emulator } from '../emulator.ts'
import type { KeyedCollection } from '../store.ts'
import type { DomainCodec } from './domain-codec.ts'
import { keyedRecords, object, stepsOf, type ShapeFields, type Shape } from './shape.ts'

/** One keyed collection of a domain's state, saved as an array of its records. */
export interface Table<S, T> {
  /** The collection in the domain's state. */
  of(state: S): KeyedCollection<T>
  /** Checks one saved record (typed field list: a record that gains a field fails typecheck). */
  shape: Shape<T>
  /** The record's key, so a snapshot repeating one is refused. */
  key(record: T): string
}

/** The saved form of the tables: each name holds its records. */
type SavedTables<R> = { [K in keyof R]: R[K][] }

/** The saved form of a `tables(…)` result, for the domain's snapshot type to extend. */
export type SavedOf<T> = T extends Tables<never, infer R> ? SavedTables<R> : never

/** A domain's keyed collections: how they are checked, saved and put back, in one place. */
export interface Tables<S, R> {
  /** Checks for each table, to spread into the domain's `shape.object` field list. */
  fields: ShapeFields<SavedTables<R>>
  save(state: S): SavedTables<R>
  /** Sets every saved record into the (just cleared) collections. */
  restore(state: S, saved: SavedTables<R>): void
}

/** A table: where the records live in the domain state, how one is checked, and its key. */
export function table<S, T>(of: (state: S) => KeyedCollection<T>, shape: Shape<T>, key: (record: T) => string): Table<S, T> {
  return { of, shape, key }
}

/** The tables of a domain state `S`, as `{ savedName: table }`: saved and restored in that order. */
export function tables<S, R>(specs: { [K in keyof R]: Table<S, R[K]> }): Tables<S, R> {
  const names = Object.keys(specs) as (keyof R & string)[]
  const fields = {} as Record<keyof R, Shape<unknown[]>>
  for (const name of names) fields[name] = keyedRecords(specs[name].shape, specs[name].key) as Shape<unknown[]>
  return {
    fields: fields as ShapeFields<SavedTables<R>>,
    save(state) {
      const saved = {} as Record<keyof R, unknown[]>
      for (const name of names) saved[name] = [...specs[name].of(state).values()]
      return saved as SavedTables<R>
    },
    restore(state, saved) {
      for (const name of names) {
        const collection = specs[name].of(state)
        for (const record of saved[name]) collection.set(record)
      }
    },
  }
}

/** A domain whose whole state is keyed tables: where its state is, and any check across tables. */
export interface TablesDomain<S, R> {
  name: string
  tables: Tables<S, R>
  /** The domain's state when it exists (a domain never used is not saved). */
  existing(emulator: Emulator): S | undefined
  /** The domain's state, created empty when needed. */
  state(emulator: Emulator): S
  /** Refuses saved tables that do not fit together (throws SnapshotError naming the path). */
  check?(saved: SavedTables<R>, path: string): void
}

/** The snapshot codec of a domain made only of keyed tables. */
export function tablesCodec<S, R>(domain: TablesDomain<S, R>): DomainCodec {
  const savedShape = object(domain.tables.fields)
  return {
    name: domain.name,
    save(emulator) {
      const state = domain.existing(emulator)
      return state && domain.tables.save(state)
    },
    *parse(value, path) {
      const saved = yield* stepsOf(savedShape)(value, path)
      domain.check?.(saved, path)
      return (emulator) => domain.tables.restore(domain.state(emulator), saved)
    },
  }
}
