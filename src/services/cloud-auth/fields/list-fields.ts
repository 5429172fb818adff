import { goQuote } from '../../../core/go/go-format.ts'
import { FieldError } from './field-error.ts'
import { weakString } from './scalar-fields.ts'

/**
 * TypeCommaStringSlice: a JSON array (items weakly converted to strings) or one string split on `,`;
 * items trimmed, empty items kept, order and duplicates kept; `""` gives `[]`.
 */
export function toCommaListField(value: unknown, name: string): string[] {
  return toList(value, name, true)
}

/** TypeStringSlice: as TypeCommaStringSlice, but one string is one item (`"a,b"` stays `["a,b"]`). */
export function toStringListField(value: unknown, name: string): string[] {
  return toList(value, name, false)
}

/**
 * TypeKVPairs: an object (values weakly converted to strings), or else a list of `key=value` items (one
 * string is a list of one), split at the first `=`; a later key wins. An item without `=` or with an
 * empty key is refused with the SDK's words (sdk v0.21.0 `framework/field_data.go`).
 */
export function toKvPairsField(value: unknown, name: string): Record<string, string> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const pairs: Record<string, string> = {}
    let convertible = true
    for (const [key, item] of Object.entries(value)) {
      const text = weakString(item, key)
      if (typeof text !== 'string') convertible = false
      else pairs[key] = text
    }
    if (convertible) return pairs
  }
  const pairs: Record<string, string> = {}
  for (const item of toList(value, name, false, false)) {
    const at = item.indexOf('=')
    if (at <= 0) throw new FieldError(name, value, `invalid key pair ${goQuote(item)}`)
    pairs[item.slice(0, at)] = item.slice(at + 1)
  }
  return pairs
}

function toList(value: unknown, name: string, splitText: boolean, trim = true): string[] {
  if (value === null || value === undefined || value === '') return []
  let items: unknown[]
  if (typeof value === 'string') items = splitText ? value.split(',') : [value]
  else if (Array.isArray(value)) items = value
  else if (typeof value === 'object' && Object.keys(value).length === 0) return []
  else items = [value]
  const out: string[] = []
  const errors: string[] = []
  items.forEach((item, index) => {
    const converted = weakString(item, `[${index}]`)
    if (typeof converted === 'string') out.push(trim ? converted.trim() : converted)
    else errors.push(`* ${converted.error}`)
  })
  if (errors.length > 0) {
    throw new FieldError(name, value, `${errors.length} error(s) decoding:\n\n${errors.sort().join('\n')}`)
  }
  return out
}
