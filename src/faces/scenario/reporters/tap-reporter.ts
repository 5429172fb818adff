import type { RunResult, StepResult } from '../glossary.ts'
import type { RunEvents } from '../runner/run-scenarios.ts'
import { summaryLine } from './summary-line.ts'

/** TAP version 14: one test point per scenario, its steps as an indented subtest. */
export function tapReporter(write: (text: string) => void): RunEvents {
  return {
    onRunEnd(result) {
      write(toTap(result))
    },
  }
}

/** The run as a TAP 14 document. */
export function toTap(result: RunResult): string {
  const lines = ['TAP version 14', `1..${result.scenarios.length}`]
  result.scenarios.forEach((scenario, i) => {
    lines.push(`# Subtest: ${line(scenario.name)}`, `    1..${scenario.steps.length}`)
    scenario.steps.forEach((step, j) => lines.push(...point(step, j + 1, '    ', scenario.file)))
    const directive = scenario.verdict === 'skipped' ? ` # SKIP ${line(scenario.reason ?? '')}` : ''
    lines.push(`${scenario.verdict === 'failed' ? 'not ok' : 'ok'} ${i + 1} - ${line(scenario.name)}${directive}`)
  })
  lines.push(`# ${summaryLine(result)}`)
  return lines.join('\n') + '\n'
}

function point(step: StepResult, n: number, indent: string, file: string): string[] {
  const name = step.phase === 'finally' ? `finally: ${step.title}` : step.phase === 'setup' ? `setup: ${step.title}` : step.title
  if (step.verdict === 'skipped') return [`${indent}ok ${n} - ${line(name)} # SKIP ${line(step.reason ?? '')}`]
  if (step.verdict === 'passed') return [`${indent}ok ${n} - ${line(name)}`]
  const diagnostics = [
    `${indent}  ---`,
    `${indent}  message: ${JSON.stringify(step.reason ?? 'the response did not match')}`,
    `${indent}  at: ${JSON.stringify(`${file}:${step.line}`)}`,
  ]
  if (step.mismatches.length > 0) {
    diagnostics.push(`${indent}  mismatches:`)
    for (const m of step.mismatches) diagnostics.push(`${indent}    - ${JSON.stringify(`${m.path}: ${m.message}`)}`)
  }
  if (step.observed) diagnostics.push(`${indent}  status: ${step.observed.status}`)
  diagnostics.push(`${indent}  ...`)
  return [`${indent}not ok ${n} - ${line(name)}`, ...diagnostics]
}

/** Test point names may not carry `#` directives or line breaks. */
function line(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/#/g, '\\#')
}
