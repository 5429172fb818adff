import type { Explanation } from '../../../core/explanation.ts'
import type { Observed, StepResult } from '../glossary.ts'

const COLUMN = 58
const MAX_LINES = 40

/**
 * A failed step for people: where it is, the request, then what was expected and what came back side
 * by side, then each difference on its own line.
 */
export function formatFailure(result: StepResult, file: string, indent = ''): string[] {
  const lines = [`${file}:${result.line}: ${result.title}`]
  if (result.reason) lines.push(`  ${result.reason}`)
  if (result.request) {
    lines.push(`  ${result.request.method} ${result.request.url}`)
    for (const [name, value] of Object.entries(result.request.headers)) lines.push(`    ${name}: ${value}`)
    if (result.request.body !== undefined) lines.push(...clip(result.request.body, 10).map((line) => `    ${line}`))
  }
  if (result.observed && (result.expected !== undefined || result.mismatches.length > 0)) {
    lines.push(...sideBySide(expectedLines(result.expected), observedLines(result.observed, result.expected)).map((line) => `  ${line}`))
  }
  for (const mismatch of result.mismatches) lines.push(`  • ${mismatch.path}: ${mismatch.message}`)
  if (result.explanation) lines.push(...explanationLines(result.explanation).map((line) => `  ${line}`))
  if (result.attempts > 1) lines.push(`  (after ${result.attempts} attempts)`)
  return lines.map((line) => indent + line)
}

/** Why doppel refused: the rule, the value seen, what passes, the hint, then the details (a canonical request). */
export function explanationLines(explanation: Explanation): string[] {
  const lines = [`why (doppel): ${explanation.rule}: saw ${explanation.seen}${explanation.expected === undefined ? '' : `; expected ${explanation.expected}`}`]
  if (explanation.hint) lines.push(`  hint: ${explanation.hint}`)
  for (const [name, value] of Object.entries(explanation.details ?? {})) {
    lines.push(`  ${name}:`, ...clip(value, 20).map((line) => `    ${line}`))
  }
  return lines
}

function expectedLines(expected: unknown): string[] {
  if (typeof expected !== 'object' || expected === null) return []
  const e = expected as { status?: unknown; headers?: Record<string, unknown>; body?: unknown; match?: string }
  const out: string[] = []
  if (e.status !== undefined) out.push(`status ${JSON.stringify(e.status)}`)
  for (const [name, value] of Object.entries(e.headers ?? {})) out.push(`${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
  if ('body' in e) out.push(...pretty(e.body))
  if (e.match === 'exact') out.push('(match: exact)')
  return out
}

function observedLines(observed: Observed, expected: unknown): string[] {
  const out = [`status ${observed.status}`]
  const named = Object.keys((expected as { headers?: Record<string, unknown> } | undefined)?.headers ?? {})
  for (const name of named) out.push(`${name}: ${observed.headers[name.toLowerCase()] ?? '(absent)'}`)
  out.push(...pretty(observed.body))
  return out
}

function pretty(value: unknown): string[] {
  if (typeof value === 'string') return clip(value, MAX_LINES)
  return clip(JSON.stringify(value, null, 2) ?? 'nothing', MAX_LINES)
}

function clip(text: string, max: number): string[] {
  const lines = text.split('\n')
  return lines.length > max ? [...lines.slice(0, max), `… ${lines.length - max} more lines`] : lines
}

/** Two columns in a box: expected on the left, actual on the right. */
function sideBySide(left: string[], right: string[]): string[] {
  const cell = (text: string | undefined) => {
    const flat = (text ?? '').replace(/\t/g, '  ')
    return flat.length > COLUMN ? `${flat.slice(0, COLUMN - 1)}…` : flat.padEnd(COLUMN)
  }
  const rule = (title: string) => `${title} ${'─'.repeat(Math.max(0, COLUMN - title.length - 1))}`
  const out = [`┌─${rule('expected')}─┬─${rule('actual')}─┐`]
  for (let i = 0; i < Math.max(left.length, right.length); i++) out.push(`│ ${cell(left[i])} │ ${cell(right[i])} │`)
  out.push(`└─${'─'.repeat(COLUMN)}─┴─${'─'.repeat(COLUMN)}─┘`)
  return out
}
