import { EARLIEST_MS, LATEST_MS } from '../clock.ts'
import { errorKind } from '../doppel-error.ts'
/**
 * Typed checks for reading a snapshot back: each returns a fresh copy of a value of its type or throws a
 * SnapshotError naming the path. `object` takes a check for every key of its type (the compiler refuses
 * a missing one), so a record type that gains a field cannot be restored without it.
 */
export class SnapshotError extends errorKind('SnapshotError', 'DOPPEL_INVALID_SNAPSHOT') {}

/**
 * A check in steps: yields between the records of a large collection (each checked record, or undefined
 * for a pause alone) and returns what the plain check returns. A restore read by the server drives it with
 * turns of the event loop in between; the in-process restore runs it straight through (`runSteps`).
 */
export type Steps<T> = (value: unknown, path: string) => Generator<object | undefined, T>

/** A check of one saved value; a shape that may hold many records also has `steps`, the same check in steps. */
export type Shape<T> = ((value: unknown, path: string) => T) & { steps?: Steps<T> }

/** Runs steps to the end, without pausing. */
export function runSteps<T>(steps: Generator<unknown, T>): T {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/** A shape's check in steps: its own, or the whole check as one step. */
export function stepsOf<T>(shape: Shape<T>): Steps<T> {
  // biome-ignore lint/correctness/useYield: a check without steps of its own runs as one step, with no pause inside
  return shape.steps ?? function* (value, path) {
    return shape(value, path)
  }
}

/** A shape checked by its steps (the plain call runs them straight through). */
function stepped<T>(steps: Steps<T>): Shape<T> {
  return Object.assign((value: unknown, path: string) => runSteps(steps(value, path)), { steps })
}

function fail(path: string, expected: string): never {
  throw new SnapshotError(`Failed to read the snapshot: ${path} must be ${expected}`)
}

export const string: Shape<string> = (value, path) => (typeof value === 'string' ? value : fail(path, 'a string'))

export const boolean: Shape<boolean> = (value, path) => (typeof value === 'boolean' ? value : fail(path, 'true or false'))

export const integer: Shape<number> = (value, path) =>
  typeof value === 'number' && Number.isSafeInteger(value) ? value : fail(path, 'an integer')

/** An integer from `min` to `max`: what the code later adds, multiplies or formats stays in range. */
export function integerIn(min: number, max: number): Shape<number> {
  return (value, path) => {
    const n = integer(value, path)
    return n >= min && n <= max ? n : fail(path, `an integer from ${min} to ${max}`)
  }
}

/** An instant the emulator clock can show (years 1970 to 9999, as `POST /_doppel/clock` accepts), in epoch ms. */
export const epochMs: Shape<number> = (value, path) => {
  const ms = integer(value, path)
  return ms >= EARLIEST_MS && ms <= LATEST_MS ? ms : fail(path, 'a time from 1970 to 9999 in epoch milliseconds')
}

/** A duration in seconds no longer than the clock's whole range. */
export const seconds: Shape<number> = integerIn(0, Math.floor(LATEST_MS / 1000))

export function literal<T extends string>(...values: readonly T[]): Shape<T> {
  return (value, path) => (values.includes(value as T) ? (value as T) : fail(path, `one of ${values.join(', ')}`))
}

export function nullable<T>(shape: Shape<T>): Shape<T | null> {
  return (value, path) => (value === null ? null : shape(value, path))
}

/** An optional field: absent (or `undefined`) stays absent. */
export function optional<T>(shape: Shape<T>): Shape<T | undefined> {
  return (value, path) => (value === undefined ? undefined : shape(value, path))
}

export function array<T>(shape: Shape<T>): Shape<T[]> {
  return (value, path) => {
    if (!Array.isArray(value)) fail(path, 'an array')
    return value.map((item, index) => shape(item, `${path}[${index}]`))
  }
}

function plainObject(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'an object')
  return value as Record<string, unknown>
}

/** Sets a key on a fresh object; an own `__proto__` key (JSON.parse makes one) stays a key. */
function put(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
  else out[key] = value
}

/** A string-keyed dictionary (tags, metadata). */
export function dictionary<T>(shape: Shape<T>): Shape<Record<string, T>> {
  if (shape.steps) {
    const item = shape.steps
    return stepped(function* (value, path) {
      const input = plainObject(value, path)
      const out: Record<string, T> = {}
      for (const key of Object.keys(input)) put(out, key, yield* item(input[key], `${path}.${key}`))
      return out
    })
  }
  return (value, path) => {
    const input = plainObject(value, path)
    const out: Record<string, T> = {}
    for (const key of Object.keys(input)) put(out, key, shape(input[key], `${path}.${key}`))
    return out
  }
}

export type ShapeFields<T> = { [K in keyof T]-?: Shape<T[K]> }

/**
 * An object with exactly these fields: a missing required field or an unknown one is refused. Keys keep
 * the input's order, so records read back serialise as they did.
 */
export function object<T>(fields: ShapeFields<T>): Shape<T> {
  const names = Object.keys(fields) as (keyof T & string)[]
  /** What is checked, in order: each key present (an unknown one refused at its turn), then each field absent. */
  const checks = (input: Record<string, unknown>, path: string) => {
    const list: [key: string, shape: Shape<unknown>, value: unknown, at: string][] = []
    for (const key of Object.keys(input)) {
      const at = `${path}.${key}`
      list.push([key, Object.hasOwn(fields, key) ? (fields[key as keyof T & string] as Shape<unknown>) : unknownField, input[key], at])
    }
    // A field an older snapshot lacks is checked as absent, and takes the value its shape reads absence as.
    for (const name of names) if (!Object.hasOwn(input, name)) list.push([name, fields[name] as Shape<unknown>, undefined, `${path}.${name}`])
    return list
  }
  if (names.some((name) => (fields[name] as Shape<unknown>).steps)) {
    return stepped(function* (value, path) {
      const out: Record<string, unknown> = {}
      for (const [key, shape, item, at] of checks(plainObject(value, path), path)) {
        const checked = yield* stepsOf(shape)(item, at)
        if (checked !== undefined) put(out, key, checked)
      }
      return out as T
    })
  }
  return (value, path) => {
    const out: Record<string, unknown> = {}
    for (const [key, shape, item, at] of checks(plainObject(value, path), path)) {
      const checked = shape(item, at)
      if (checked !== undefined) put(out, key, checked)
    }
    return out as T
  }
}

const unknownField: Shape<never> = (_value, path) => {
  throw new SnapshotError(`Failed to read the snapshot: ${path} is not a known field`)
}

/**
 * Records of one keyed collection, saved as an array: each checked, none sharing a key.
 */
export function keyedRecords<T>(shape: Shape<T>, key: (record: T) => string): Shape<T[]> {
  return stepped(function* (value, path) {
    if (!Array.isArray(value)) fail(path, 'an array')
    const records: T[] = []
    for (let index = 0; index < value.length; index++) {
      const record = shape(value[index], `${path}[${index}]`)
      records.push(record)
      yield typeof record === 'object' && record !== null ? record : undefined
    }
    const seen = new Set<string>()
    records.forEach((record, index) => {
      const id = key(record)
      if (seen.has(id)) throw new SnapshotError(`Failed to read the snapshot: ${path}[${index}] repeats the key "${id}"`)
      seen.add(id)
    })
    return records
  })
}

/** A Map saved as `[[key, value], …]`. */
export function entries<T>(shape: Shape<T>): Shape<Map<string, T>> {
  const pair = (value: unknown, path: string): [string, T] => {
    if (!Array.isArray(value) || value.length !== 2) fail(path, 'a [key, value] pair')
    return [string(value[0], `${path}[0]`), shape(value[1], `${path}[1]`)]
  }
  return stepped(function* (value, path) {
    if (!Array.isArray(value)) fail(path, 'an array')
    const map = new Map<string, T>()
    for (let index = 0; index < value.length; index++) {
      const [key, item] = pair(value[index], `${path}[${index}]`)
      map.set(key, item)
      yield undefined
    }
    return map
  })
}

/** Bytes saved as base64 (standard alphabet, padded). */
export const base64Bytes: Shape<Buffer> = (value, path) => {
  const text = string(value, path)
  const bytes = Buffer.from(text, 'base64')
  return bytes.toString('base64') === text ? bytes : fail(path, 'base64')
}

/** Refuses the first record whose `field` names nothing in `known` (a reference to a missing record). */
export function checkReferences<T>(records: readonly T[], path: string, field: keyof T & string, known: ReadonlySet<unknown>, what: string): void {
  const index = records.findIndex((record) => !known.has(record[field]))
  if (index !== -1) throw new SnapshotError(`Failed to read the snapshot: ${path}[${index}].${field} names no ${what}`)
}
