/**
 * A field set on an object as its own, a `__proto__` key included: JSON.parse makes such a key an own
 * field, and assigning one to a copy would set the copy's prototype instead (and drop the field).
 */
export function setOwnField(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true })
  else object[key] = value
}

/**
 * A table's entry for a key from outside (a request's text, a scenario's name), or undefined: only the
 * table's own entries, never what its prototype holds (`valueOf`, `constructor`, `__proto__`).
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined
}
