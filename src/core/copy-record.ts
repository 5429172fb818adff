/**
 * A deep copy of plain data (objects, arrays, primitives), as the services keep their records.
 * @note `structuredClone` costs tens of microseconds per call in Node; a role write is on a hot path.
 * Each level is copied whole first (a spread or `slice`, which keep an own `__proto__` key a key), then
 * only the values that are objects are copied in turn: a role is ~35 keys, mostly strings and flat lists.
 */
export function copyRecord<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    const out: unknown[] = value.slice()
    for (let i = 0; i < out.length; i++) {
      const item = out[i]
      if (typeof item === 'object' && item !== null) out[i] = copyRecord(item)
    }
    return out as T
  }
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) }
  for (const key of Object.keys(out)) {
    const item = out[key]
    if (typeof item !== 'object' || item === null) continue
    // Assigning to "__proto__" would set the prototype: it is defined as an own key instead.
    if (key === '__proto__') Object.defineProperty(out, key, { value: copyRecord(item), enumerable: true, writable: true, configurable: true })
    else out[key] = copyRecord(item)
  }
  return out as T
}
