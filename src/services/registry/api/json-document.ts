import { NESTING_LIMIT, parseJsonBounded } from '../../../core/bounded-parse.ts'
import { registryErrors } from './registry-error.ts'
import { ownEntry } from '../../../core/own-field.ts'

export type JsonObject = Record<string, unknown>

/** A JSON:API request body: parsed, and refused with a 422 pointing at `/data` when it is not an object. */
export function parseJsonDocument(bytes: Uint8Array): JsonObject {
  let value: unknown
  try {
    // Rails' JSON parser refuses nesting past 100 levels (`max_nesting`).
    value = parseJsonBounded(new TextDecoder('utf-8', { fatal: true }).decode(bytes), NESTING_LIMIT)
  } catch {
    throw registryErrors.invalidAttribute('/data', 'notJson')
  }
  if (!isObject(value)) throw registryErrors.invalidAttribute('/data', 'notJson', value)
  return value
}

/** A JSON object (not null, not an array). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** An own member of a parsed object (never one inherited from Object.prototype). */
export function member(object: JsonObject, key: string): unknown {
  return ownEntry(object, key)
}

/** A required object member: blank → `can't be blank`, anything else → `must be an object`. */
export function requireObject(parent: JsonObject, key: string, pointer: string): JsonObject {
  const value = member(parent, key)
  if (value === undefined || value === null) throw registryErrors.invalidAttribute(pointer, 'blank', value)
  if (!isObject(value)) throw registryErrors.invalidAttribute(pointer, 'notObject', value)
  return value
}

/** An optional string member; absent or null → undefined. */
export function optionalString(parent: JsonObject, key: string, pointer: string): string | undefined {
  const value = member(parent, key)
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw registryErrors.invalidAttribute(pointer, 'notString', value)
  return value
}

/** A required, non-empty string member. */
export function requireString(parent: JsonObject, key: string, pointer: string): string {
  const value = optionalString(parent, key, pointer)
  if (value === undefined || value === '') throw registryErrors.invalidAttribute(pointer, 'blank', value)
  return value
}

/** `data` of a single-resource document whose `type` is one of `types`. */
export function resourceData(document: JsonObject, types: readonly string[]): JsonObject {
  const data = requireObject(document, 'data', '/data')
  const type = member(data, 'type')
  if (type === undefined || type === null || type === '') throw registryErrors.invalidAttribute('/data/type', 'blank', type)
  if (typeof type !== 'string' || !types.includes(type)) throw registryErrors.invalidAttribute('/data/type', 'inclusion', type)
  return data
}
