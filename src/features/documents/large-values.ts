/**
 * A large parsed value crosses from a worker to the main thread as JSON text in slices, so that turning it
 * back into objects can pause between slices instead of holding the event loop for the whole document. An
 * array or object with more than `SLICE` entries becomes a Map (never a JSON value, so never mistaken for
 * one) holding its entries as JSON strings of up to `SLICE` entries each.
 */
const SLICE = 500

type Packed = unknown

export function packLargeValue(value: unknown): Packed {
  if (typeof value !== 'object' || value === null) return value
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, i) => [i, item]) : Object.entries(value)
  if (entries.length <= SLICE) {
    if (Array.isArray(value)) return value.map(packLargeValue)
    return Object.fromEntries(entries.map(([key, item]) => [key, packLargeValue(item)]))
  }
  const slices: string[] = []
  for (let at = 0; at < entries.length; at += SLICE) {
    const part = entries.slice(at, at + SLICE)
    slices.push(JSON.stringify(Array.isArray(value) ? part.map(([, item]) => item) : Object.fromEntries(part)))
  }
  return new Map([[Array.isArray(value) ? 'array' : 'object', slices]])
}

/** Rebuilds a packed value, awaiting `pause()` between slices. */
export async function unpackLargeValue(packed: Packed, pause: () => Promise<void>): Promise<unknown> {
  if (packed instanceof Map) {
    const [[kind, slices]] = [...packed] as [[string, string[]]]
    if (kind === 'array') {
      const items: unknown[] = []
      for (const slice of slices) {
        await pause()
        items.push(...(JSON.parse(slice) as unknown[]))
      }
      return items
    }
    const object: Record<string, unknown> = {}
    for (const slice of slices) {
      await pause()
      // Entries one by one: Object.assign would run a `__proto__` key as the setter.
      for (const [key, item] of Object.entries(JSON.parse(slice) as Record<string, unknown>)) Object.defineProperty(object, key, { value: item, enumerable: true, writable: true, configurable: true })
    }
    return object
  }
  if (typeof packed !== 'object' || packed === null) return packed
  if (Array.isArray(packed)) {
    const items: unknown[] = []
    for (const item of packed) items.push(await unpackLargeValue(item, pause))
    return items
  }
  const object: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(packed)) Object.defineProperty(object, key, { value: await unpackLargeValue(item, pause), enumerable: true, writable: true, configurable: true })
  return object
}
