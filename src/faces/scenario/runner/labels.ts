import { errorKind } from '../../../core/doppel-error.ts'
/**
 * Label expressions for `--label`: names joined by `and`, `or`, `not` and parentheses, e.g.
 * `ec2 and not iam`, `registry or tidy`, `(ec2 or iam) and login`. `not` binds tightest, then `and`.
 */
export class LabelExpressionError extends errorKind('LabelExpressionError', 'DOPPEL_INVALID_LABEL_EXPRESSION') {}

export type LabelFilter = (labels: readonly string[]) => boolean

/** Compiles a label expression into a predicate over a scenario's labels. */
export function parseLabelExpression(text: string): LabelFilter {
  const tokens = text.match(/\(|\)|[^\s()]+/g) ?? []
  let i = 0
  const fail = (why: string): never => {
    throw new LabelExpressionError(`invalid --label expression ${JSON.stringify(text)}: ${why}`)
  }
  const peek = () => tokens[i]?.toLowerCase()
  const parseOr = (): LabelFilter => {
    let left = parseAnd()
    while (peek() === 'or') {
      i++
      const a = left
      const b = parseAnd()
      left = (labels) => a(labels) || b(labels)
    }
    return left
  }
  const parseAnd = (): LabelFilter => {
    let left = parseNot()
    while (peek() === 'and') {
      i++
      const a = left
      const b = parseNot()
      left = (labels) => a(labels) && b(labels)
    }
    return left
  }
  const parseNot = (): LabelFilter => {
    if (peek() === 'not') {
      i++
      const inner = parseNot()
      return (labels) => !inner(labels)
    }
    return parseAtom()
  }
  const parseAtom = (): LabelFilter => {
    const token = tokens[i]
    if (token === undefined) return fail('it ends too early')
    if (token === '(') {
      i++
      const inner = parseOr()
      if (tokens[i] !== ')') fail('a "(" is not closed')
      i++
      return inner
    }
    if (token === ')' || ['and', 'or', 'not'].includes(token.toLowerCase())) return fail(`unexpected "${token}"`)
    i++
    return (labels) => labels.includes(token)
  }
  if (tokens.length === 0) fail('it is empty')
  const filter = parseOr()
  if (i < tokens.length) fail(`unexpected "${tokens[i]}"`)
  return filter
}
