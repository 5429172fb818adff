import { describeValue } from '../../../core/describe-value.ts'
import { DoppelError } from '../../../core/doppel-error.ts'
import { goQuote, goTypeName, goValue } from '../../../core/go/go-format.ts'

/**
 * A value that does not convert to its field's type. The message has no `Field validation failed: `
 * prefix; the route adds it where the real service does (docs/reference/cloud-auth.md §1.6). It names the
 * field, not the value, as Vault's SDK does (sdk v0.21.0 framework/field_data.go, Validate), as the real
 * method answered on a real server.
 */
export class FieldError extends DoppelError {
  override name = 'FieldError'
  readonly field: string
  constructor(field: string, value: unknown, reason: string) {
    super('DOPPEL_INVALID_FIELD', `error converting input for field ${goQuote(field)}: ${reason}`)
    this.field = field
    this.explanation = { rule: `field ${field}`, seen: describeValue(value), expected: reason }
  }
}

/** mapstructure's refusal of a value of the wrong kind. */
export function unconvertible(name: string, target: string, value: unknown): string {
  return `'${name}' expected type '${target}', got unconvertible type '${goTypeName(value)}', value: '${goValue(value)}'`
}
