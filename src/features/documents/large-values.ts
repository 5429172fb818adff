/**
 * A large parsed value crosses from a worker to the main thread as JSON text in slices, so that turning it
 * back into objects can pause between slices instead of holding the event loop for the whole document. An
 * array or object with more than `SLICE` entries or `SLICE_BYTES` of JSON becomes a Map (never a JSON value,
 * so never mistaken for one) holding its entries in order: runs of small entries as JSON strings of up to
 * `SLICE` entries and about `SLICE_BYTES` each, and each entry larger than that alone, packed the same way.
 */
const SLICE = 500
const SLICE_BYTES = 256 * 1024

type Packed = unknown

/** An entry too large for a slice, packed on its own. */
interface LargeEntry {
  key: string | number
  packed: Packed
}

/** A value's JSON when it is small enough to travel inside a slice, else the value packed. */
type Part = { text: string } | { packed: Packed }

function part(value: unknown): Part {
  // As JSON.stringify writes them: undefined is null in an array and left out of an object.
  if (typeof value !== 'object' || value === null) return { text: JSON.stringify(value) ?? 'null' }
  const isArray = Array.isArray(value)
  const entries: [string | number, unknown][] = isArray ? value.map((item, i) => [i, item]) : Object.entries(value).filter(([, item]) => item !== undefined)
  const parts = entries.map(([key, item]) => [key, part(item)] as const)
  const entryText = (key: string | number, text: string) => (isArray ? text : `${JSON.stringify(key)}:${text}`)
  const wrap = (texts: string[]) => (isArray ? `[${texts.join(',')}]` : `{${texts.join(',')}}`)
  let bytes = 0
  for (const [, p] of parts) bytes += 'text' in p ? p.text.length : Infinity
  if (entries.length <= SLICE && bytes <= SLICE_BYTES) return { text: wrap(parts.map(([key, p]) => entryText(key, (p as { text: string }).text))) }
  const slices: (string | LargeEntry)[] = []
  let run: string[] = []
  let runBytes = 0
  const endRun = () => {
    if (run.length > 0) slices.push(wrap(run))
    run = []
    runBytes = 0
  }
  for (const [key, p] of parts) {
    if (!('text' in p)) {
      endRun()
      slices.push({ key, packed: p.packed })
      continue
    }
    if (run.length >= SLICE || runBytes + p.text.length > SLICE_BYTES) endRun()
    run.push(entryText(key, p.text))
    runBytes += p.text.length
  }
  endRun()
  return { packed: new Map([[isArray ? 'array' : 'object', slices]]) }
}

export function packLargeValue(value: unknown): Packed {
  const packed = part(value)
  return 'text' in packed ? value : packed.packed
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
    const define = (key: string, item: unknown) => Object.defineProperty(object, key, { value: item, enumerable: true, writable: true, configurable: true })
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
