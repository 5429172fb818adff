/**
 * A value named in an error message without echoing it back whole: short scalars as JSON, anything else
 * by its kind and size. A refusal of a megabyte-long or deeply nested value stays one short line.
 */
const SHOWN = 64

export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`
  if (typeof value === 'object' && value !== null) return 'an object'
  if (typeof value === 'string' && value.length > SHOWN) return `a string of ${value.length} characters`
  return JSON.stringify(value) ?? String(value)
}
