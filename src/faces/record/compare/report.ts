/** The differences as live lines, an end-of-run table and a JSON document. */
import type { Explanation } from '../../../core/explanation.ts'
import { explanationLines } from '../../scenario/shared.ts'
import type { Difference } from './differences.ts'

export interface ComparedExchange {
  index: number
  method: string
  path: string
  differences: Difference[]
  /** Why doppel refused, where it did and the answers differ. */
  explanation?: Explanation
}

export interface Report {
  table: string
  json: { exchanges: number; differing: number; differences: ComparedExchange[] }
}

const show = (value: unknown): string => {
  const text = value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value)
  const flat = text.replace(/\s+/g, ' ')
  return flat.length > 80 ? `${flat.slice(0, 77)}…` : flat
}

function describe(difference: Difference): string {
  switch (difference.kind) {
    case 'missing-field':
      return `${difference.path} only upstream`
    case 'extra-field':
      return `${difference.path} only doppel`
    default:
      return `${difference.path} ${show(difference.upstream)} ≠ ${show(difference.doppel)}`
  }
}

export function formatReport(compared: readonly ComparedExchange[]): Report {
  const differing = compared.filter((entry) => entry.differences.length > 0)
  const rows = differing.flatMap((entry) =>
    entry.differences.map((d) => [String(entry.index), entry.method, entry.path.split('?')[0]!, d.kind, show(d.upstream), show(d.doppel)]),
  )
  const header = ['#', 'method', 'path', 'difference', 'upstream', 'doppel']
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)))
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()
  const summary = `${compared.length} exchanges, ${differing.length} differ`
  const table = rows.length === 0 ? `${summary}\n` : [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line), summary].join('\n') + '\n'
  return { table, json: { exchanges: compared.length, differing: differing.length, differences: differing } }
}

/** `DIFF #3 POST /v1/auth/cloud/login: status 200 ≠ 400; $.errors …`, then why doppel refused, if it did. */
formatReport.line = (entry: ComparedExchange): string =>
  [`DIFF #${entry.index} ${entry.method} ${entry.path.split('?')[0]}: ${entry.differences.map(describe).join('; ')}`, ...(entry.explanation ? explanationLines(entry.explanation).map((line) => `  ${line}`) : [])].join('\n')
