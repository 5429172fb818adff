/**
 * A large parsed value crosses from a worker to the main thread as JSON text in slices, so that turning it
 * back into objects can pause between slices instead of holding the event loop for the whole document. An
 * array or object with more than `SLICE` entries or `SLICE_BYTES` of JSON becomes a Map (never a JSON value,
 * so never mistaken for one) holding its entries in order: runs of small entries as JSON strings of up to
 * `SLICE` entries and about `SLICE_BYTES` each, and each entry larger than that alone, packed the same way.
 */
import { setOwnField } from '../../core/own-field.ts'

const SLICE = 500
const SLICE_BYTES = 256 * 1024

type Packed = unknown

/** An entry too large for a slice, packed on its own. */
interface LargeEntry {
  key: string | number
  packed: Packed
}

const isCollection = (value: unknown): value is Record<string, unknown> | unknown[] => typeof value === 'object' && value !== null

/**
 * About the length of a value's JSON (escapes not counted), found without writing it, and only up to just
 * past `limit`: sizing a large value costs what it takes to pass the limit, not the whole value.
 */
function sizeUpTo(value: unknown, limit: number): number {
  if (typeof value === 'string') return value.length + 2
  if (!isCollection(value)) return 8
  let size = 2
  if (Array.isArray(value)) {
    for (const item of value) if ((size += sizeUpTo(item, limit - size) + 1) > limit) return size
  } else {
    for (const [key, item] of Object.entries(value)) if ((size += key.length + 4 + sizeUpTo(item, limit - size)) > limit) return size
  }
  return size
}

export function packLargeValue(value: unknown): Packed {
  if (!isCollection(value)) return value
  const list = Array.isArray(value) ? value : undefined
  const record = value as Record<string, unknown>
  const keys = list ? undefined : Object.keys(record)
  const count = list?.length ?? keys!.length
  if (count <= SLICE && sizeUpTo(value, SLICE_BYTES) <= SLICE_BYTES) return value
  // Each run of small entries is written as one JSON text (never one text an entry: a million small values
  // would cost the worker a million strings).
  const slices: (string | LargeEntry)[] = []
  let runStart = 0
  let runBytes = 0
  const endRun = (end: number) => {
    if (end > runStart) {
      slices.push(
        list
          ? JSON.stringify(list.slice(runStart, end))
          : JSON.stringify(Object.fromEntries(keys!.slice(runStart, end).map((key) => [key, record[key]]))),
      )
    }
    runStart = end
    runBytes = 0
  }
  for (let i = 0; i < count; i++) {
    const item = list ? list[i] : record[keys![i]!]
    const size = sizeUpTo(item, SLICE_BYTES) + (keys ? keys[i]!.length : 0)
    if (size > SLICE_BYTES && isCollection(item)) {
      endRun(i)
      slices.push({ key: keys?.[i] ?? i, packed: packLargeValue(item) })
      runStart = i + 1
      continue
    }
    if (i - runStart >= SLICE || runBytes + size > SLICE_BYTES) endRun(i)
    runBytes += size
  }
  endRun(count)
  return new Map([[list ? 'array' : 'object', slices]])
}

/** Rebuilds a packed value, awaiting `pause()` between slices. */
export async function unpackLargeValue(packed: Packed, pause: () => Promise<void>): Promise<unknown> {
  if (packed instanceof Map) {
    const [[kind, slices]] = [...packed] as [[string, (string | LargeEntry)[]]]
    if (kind === 'array') {
      const items: unknown[] = []
      for (const slice of slices) {
        await pause()
        if (typeof slice === 'string') items.push(...(JSON.parse(slice) as unknown[]))
        else items.push(await unpackLargeValue(slice.packed, pause))
      }
      return items
    }
    const object: Record<string, unknown> = {}
    // Entries one by one: Object.assign would run a `__proto__` key as the setter.
    const define = (key: string, item: unknown) => setOwnField(object, key, item)
    for (const slice of slices) {
      await pause()
      if (typeof slice === 'string') for (const [key, item] of Object.entries(JSON.parse(slice) as Record<string, unknown>)) define(key, item)
      else define(String(slice.key), await unpackLargeValue(slice.packed, pause))
    }
    return object
  }
  return packed
}

/**
 * Takes the text of a packed value's slices out of it, so that it can cross in several messages (taking
 * one message of hundreds of megabytes holds the receiving thread for its whole size): the value with
 * each slice's place numbered, and the texts in that order. `putTexts` puts them back.
 */
export function takeTexts(packed: Packed): { skeleton: Packed; texts: string[] } {
  const texts: string[] = []
  const take = (value: Packed): Packed => {
    if (!(value instanceof Map)) return value
    const [[kind, slices]] = [...value] as [[string, (string | LargeEntry)[]]]
    return new Map([[kind, slices.map((slice) => (typeof slice === 'string' ? texts.push(slice) - 1 : { key: slice.key, packed: take(slice.packed) }))]])
  }
  return { skeleton: take(packed), texts }
}

export function putTexts(skeleton: Packed, texts: readonly string[]): Packed {
  if (!(skeleton instanceof Map)) return skeleton
  const [[kind, slices]] = [...skeleton] as [[string, (number | LargeEntry)[]]]
  return new Map([[kind, slices.map((slice) => (typeof slice === 'number' ? texts[slice]! : { key: slice.key, packed: putTexts(slice.packed, texts) }))]])
}
