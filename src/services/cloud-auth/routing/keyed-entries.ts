import type { KeyedCollection } from '../../../core/store.ts'
import type { FieldSchema } from '../fields/index.ts'
import type { AuthState } from '../state.ts'
import { listResult, type Endpoint, type Operation, type OperationHandler } from './endpoint.ts'

/** A path family of entries kept in one collection under one key: read, delete, LIST, and its own writes. */
export interface KeyedEntriesSpec<Entry> {
  /** The entry path, relative to the mount (a route row's path). */
  path: string
  /** The name a trailing `*` of `path` is captured under. */
  rest?: string
  /** The LIST path. */
  listPath: string
  fields: FieldSchema
  collection: (state: AuthState) => KeyedCollection<Entry>
  /** The stored key for the path's values; throws the path's own error when it cannot be had. */
  key: (params: Record<string, string>) => string
  /** What a read of an entry answers as `data`. */
  readData: (entry: Entry) => Record<string, unknown>
  /** The family's writes (`create`, `update`). */
  writes?: Partial<Record<Operation, OperationHandler>>
  /** POST/PUT turn into create or update by whether the entry exists (docs/reference/cloud-auth.md §1.6). */
  checksExistence?: boolean
  /** LIST order of the keys; sorted as strings unless said. */
  listOrder?: (a: string, b: string) => number
}

/** The entry endpoint and the LIST endpoint of a keyed path family: the one rule for every such family. */
export function keyedEntries<Entry>(spec: KeyedEntriesSpec<Entry>): { entry: Endpoint; list: Endpoint } {
  const { collection, key } = spec
  const entry: Endpoint = {
    path: spec.path,
    ...(spec.rest !== undefined && { rest: spec.rest }),
    fields: spec.fields,
    ...(spec.checksExistence && { exists: (state: AuthState, params: Record<string, string>) => collection(state).has(key(params)) }),
    operations: {
      ...spec.writes,
      read: ({ state, params }) => {
        const found = collection(state).get(key(params))
        return found && { data: spec.readData(found) }
      },
      delete: ({ state, params }) => {
        collection(state).delete(key(params))
        return undefined
      },
    },
  }
  const list: Endpoint = {
    path: spec.listPath,
    fields: {},
    operations: { list: ({ state }) => listResult([...collection(state).keys()].sort(spec.listOrder)) },
  }
  return { entry, list }
}
