/**
 * A field set on an object as its own, a `__proto__` key included: JSON.parse makes such a key an own
 * field, and assigning one to a copy would set the copy's prototype instead (and drop the field).
 */
export function setOwnField(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true })
  else object[key] = value
}
