import { parseDuration } from '../../../core/duration.ts'
import type { ValuePath } from '../glossary.ts'
import { hasTemplate, parseExpression, TemplateError } from '../expressions/template.ts'
import { MATCHERS, TYPE_NAMES } from './matchers.ts'

export interface ExpectationIssue {
  path: ValuePath
  message: string
}

const MATCHER_SET: ReadonlySet<string> = new Set(MATCHERS)

/**
 * Checks the `$` operators inside an expected value before anything runs: only the closed set, not mixed
 * with plain keys, and operands of the right kind (templated operands are checked when they resolve).
 */
export function validateExpectation(value: unknown, path: ValuePath): ExpectationIssue[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => validateExpectation(item, [...path, i]))
  if (typeof value !== 'object' || value === null) return []
  const keys = Object.keys(value)
  const operators = keys.filter((key) => key.startsWith('$'))
  if (operators.length === 0) return keys.flatMap((key) => validateExpectation((value as Record<string, unknown>)[key], [...path, key]))
  const issues: ExpectationIssue[] = []
  if (operators.length !== keys.length) {
    issues.push({ path, message: `a mapping with $ matchers cannot also have plain keys (${keys.filter((k) => !k.startsWith('$')).join(', ')})` })
  }
  for (const op of operators) {
    const operand = (value as Record<string, unknown>)[op]
    const at = [...path, op]
    if (!MATCHER_SET.has(op)) {
      issues.push({ path: at, message: `unknown matcher "${op}" (one of ${MATCHERS.join(' ')})` })
      continue
    }
    const problem = checkOperand(op, operand)
    if (problem) issues.push({ path: at, message: `${op} ${problem}` })
    if (op === '$each' || op === '$contains') issues.push(...validateExpectation(operand, at))
  }
  return issues
}

function checkOperand(op: string, operand: unknown): string | undefined {
  if (typeof operand === 'string' && hasTemplate(operand) && op !== '$sameAs') return undefined
  switch (op) {
    case '$absent':
    case '$exists':
      return typeof operand === 'boolean' ? undefined : 'takes true or false'
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return typeof operand === 'number' || typeof operand === 'string' ? undefined : 'takes a number (or a string)'
    case '$in':
      return Array.isArray(operand) ? undefined : 'takes a list of values'
    case '$regex':
      if (typeof operand !== 'string') return 'takes a regular expression string'
      try {
        new RegExp(operand, 'u')
        return undefined
      } catch (error) {
        return `is not a valid regular expression: ${(error as Error).message}`
      }
    case '$type': {
      const names = Array.isArray(operand) ? operand : [operand]
      const bad = names.filter((name) => !(TYPE_NAMES as readonly unknown[]).includes(name))
      return names.length > 0 && bad.length === 0 ? undefined : `takes one of ${TYPE_NAMES.join(', ')} (or a list of them)`
    }
    case '$minLength':
    case '$length':
      return Number.isInteger(operand) && (operand as number) >= 0 ? undefined : 'takes a non-negative integer'
    case '$duration':
      try {
        if (typeof operand !== 'string' && typeof operand !== 'number') return 'takes a duration such as 72h or a number of seconds'
        parseDuration(operand)
        return undefined
      } catch (error) {
        return `takes a duration such as 72h or a number of seconds: ${(error as Error).message}`
      }
    case '$sameAs':
      return checkReference(operand)
    default:
      return undefined
  }
}

/** `$sameAs` takes a reference to an earlier capture: `steps.<id>.<capture>`, braces optional. */
function checkReference(operand: unknown): string | undefined {
  if (typeof operand !== 'string') return 'takes a reference such as steps.create.id'
  try {
    const expression = parseExpression(stripBraces(operand))
    const first = expression.alternatives[0]
    if (expression.alternatives.length !== 1 || first?.kind !== 'path' || first.root !== 'steps' || first.segments.length < 2) {
      return 'takes a reference such as steps.create.id'
    }
    return undefined
  } catch (error) {
    if (error instanceof TemplateError) return error.message
    throw error
  }
}

/** `${{ steps.a.b }}` → `steps.a.b`. */
export function stripBraces(text: string): string {
  const m = /^\s*\$\{\{([\s\S]*)\}\}\s*$/.exec(text)
  return m ? m[1]! : text
}
