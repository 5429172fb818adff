import { cloudErrors } from './cloud-errors.ts'

/**
 * AWS's model-level parameter validation (`N validation error(s) detected: Value '<v>' at '<field>' failed
 * to satisfy constraint: …`), with each operation's constraints in one table below.
 */
export interface ParameterRule {
  /** The member name as AWS's messages spell it (lower camel case). */
  field: string
  required?: boolean
  minLength?: number
  maxLength?: number
  pattern?: string
  minValue?: number
  maxValue?: number
  integer?: boolean
}

const NAME = '[\\w+=,.@-]+'

export const PARAMETER_RULES = {
  assumeRole: [
    { field: 'roleArn', required: true, minLength: 20, maxLength: 2048 },
    { field: 'roleSessionName', required: true, minLength: 2, maxLength: 64, pattern: '[\\w+=,.@-]*' },
    { field: 'durationSeconds', integer: true, minValue: 900, maxValue: 43200 },
    { field: 'externalId', minLength: 2, maxLength: 1224, pattern: '[\\w+=,.@:\\/-]*' },
  ],
  userName: [{ field: 'userName', minLength: 1, maxLength: 128, pattern: NAME }],
  roleName: [{ field: 'roleName', required: true, minLength: 1, maxLength: 64, pattern: NAME }],
  instanceProfileName: [{ field: 'instanceProfileName', required: true, minLength: 1, maxLength: 128, pattern: NAME }],
  accessKeyId: [{ field: 'accessKeyId', required: true, minLength: 16, maxLength: 128, pattern: '[\\w]+' }],
} satisfies Record<string, ParameterRule[]>

/** Checks values (by field name) against rules; throws one ValidationError naming every failure. */
export function checkParameters(rules: ParameterRule[], values: Record<string, string | number | undefined>): void {
  const fragments: string[] = []
  for (const rule of rules) {
    const failure = firstFailure(rule, values[rule.field])
    if (failure !== undefined) fragments.push(failure)
  }
  if (fragments.length > 0) throw cloudErrors.validation(fragments)
}

function firstFailure(rule: ParameterRule, value: string | number | undefined): string | undefined {
  if (value === undefined) return rule.required ? `Value null at '${rule.field}' failed to satisfy constraint: Member must not be null` : undefined
  const text = String(value)
  const fail = (constraint: string) => `Value '${text}' at '${rule.field}' failed to satisfy constraint: Member must ${constraint}`
  if (rule.integer) {
    if (!/^-?\d+$/.test(text)) return fail('be a number')
    const n = Number(text)
    if (rule.minValue !== undefined && n < rule.minValue) return fail(`have value greater than or equal to ${rule.minValue}`)
    if (rule.maxValue !== undefined && n > rule.maxValue) return fail(`have value less than or equal to ${rule.maxValue}`)
    return undefined
  }
  if (rule.minLength !== undefined && text.length < rule.minLength) return fail(`have length greater than or equal to ${rule.minLength}`)
  if (rule.maxLength !== undefined && text.length > rule.maxLength) return fail(`have length less than or equal to ${rule.maxLength}`)
  if (rule.pattern !== undefined && !new RegExp(`^(?:${rule.pattern})$`).test(text)) {
    return fail(`satisfy regular expression pattern: ${rule.pattern}`)
  }
  return undefined
}
