/**
 * TypeString, TypeBool and TypeInt of the real service's framework (docs/reference/cloud-auth.md §1.7): weakly typed, with
 * its exact error texts. Request data holds JSON numbers as their source text.
 */
import { parseGoBool, parseGoInt } from '../../../core/go/go-strconv.ts'
import { FieldError, unconvertible } from './field-error.ts'

/** TypeString: scalars weakly converted (bools become `"1"`/`"0"`); lists and objects refused. */
export function toStringField(value: unknown, name: string): string {
  const result = weakString(value, '')
  if (typeof result === 'string') return result
  throw new FieldError(name, value, result.error)
}

/** A scalar weakly converted to a string, or the refusal (`name` is the item's place in a list). */
export function weakString(value: unknown, name: string): string | { error: string } {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return value ? '1' : '0'
  if (typeof value === 'number') return String(value)
  return { error: unconvertible(name, 'string', value) }
}

/** TypeBool: bools, Go's `ParseBool` strings, `""` (false); JSON numbers arrive as text, so only 1 and 0. */
export function toBoolField(value: unknown, name: string): boolean {
  if (value === null || value === undefined) return false
  if (typeof value === 'boolean') return value
  if (typeof value === 'number') return value !== 0
  if (typeof value === 'string') {
    if (value === '') return false
    try {
      return parseGoBool(value)
    } catch (error) {
      throw new FieldError(name, value, `cannot parse '' as bool: ${(error as Error).message}`)
    }
  }
  throw new FieldError(name, value, unconvertible('', 'bool', value))
}

/**
 * TypeInt: numbers and numeric strings in Go literal syntax (`0x10` too); `""` is 0; bools are 1/0.
 * Integers a JavaScript number cannot hold exactly (beyond ±2^53 - 1) are refused, so what is stored
 * reads back as written.
 */
export function toIntField(value: unknown, name: string): number {
  if (value === null || value === undefined) return 0
  if (typeof value === 'boolean') return value ? 1 : 0
  let result: number
  if (typeof value === 'number') result = Math.trunc(value)
  else if (typeof value === 'string') {
    try {
      result = parseGoInt(value === '' ? '0' : value, 0)
    } catch (error) {
      throw new FieldError(name, value, `cannot parse '' as int: ${(error as Error).message}`)
    }
  } else throw new FieldError(name, value, unconvertible('', 'int', value))
  if (!Number.isSafeInteger(result)) {
    throw new FieldError(name, value, `value out of range: at most ${Number.MAX_SAFE_INTEGER} in magnitude can be stored exactly`)
  }
  return result
}
