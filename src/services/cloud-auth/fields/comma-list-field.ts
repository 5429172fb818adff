import { FieldError } from './field-error.ts'
import { weakString } from './scalar-fields.ts'

/**
 * TypeCommaStringSlice: a JSON array (items weakly converted to strings) or one string split on `,`;
 * items trimmed, empty items kept, order and duplicates kept; `""` gives `[]`.
 */
export function toCommaListField(value: unknown, name: string): string[] {
  if (value === null || value === undefined || value === '') return []
  let items: unknown[]
  if (typeof value === 'string') items = value.split(',')
  else if (Array.isArray(value)) items = value
  else if (typeof value === 'object' && Object.keys(value).length === 0) return []
  else items = [value]
  const out: string[] = []
  const errors: string[] = []
  items.forEach((item, index) => {
    const converted = weakString(item, `[${index}]`)
    if (typeof converted === 'string') out.push(converted.trim())
    else errors.push(`* ${converted.error}`)
  })
  if (errors.length > 0) {
    throw new FieldError(name, value, `${errors.length} error(s) decoding:\n\n${errors.sort().join('\n')}`)
  }
  return out
}
