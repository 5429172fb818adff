import type { Scenario, StepResult } from '../glossary.ts'
import type { RunEvents } from '../runner/run-scenarios.ts'
import { formatFailure } from './format-failure.ts'
import { summaryLine } from './summary-line.ts'

const MARK = { passed: '✓', failed: '✗', skipped: '↓' } as const

/**
 * Progress for people: each step as it finishes (each scenario as a block when several run at once),
 * failures with the request and expected/actual side by side, and the summary line last.
 */
export function prettyReporter(write: (text: string) => void): RunEvents {
  let streaming = true
  const buffers = new Map<Scenario, string[]>()
  const out = (scenario: Scenario, lines: string[]) => {
    if (streaming) write(lines.map((line) => `${line}\n`).join(''))
    else buffers.get(scenario)?.push(...lines)
  }
  return {
    onRunStart({ target, scenarios, jobs }) {
      streaming = jobs <= 1
      write(`doppel run · target ${target} · ${scenarios.length} scenario${scenarios.length === 1 ? '' : 's'}\n`)
    },
    onScenarioStart(scenario) {
      buffers.set(scenario, [])
      out(scenario, ['', `● ${scenario.name}  (${scenario.file})`])
    },
    onStep(scenario, result) {
      out(scenario, stepLines(scenario, result))
    },
    onScenarioEnd(scenario) {
      if (!streaming) write((buffers.get(scenario) ?? []).map((line) => `${line}\n`).join(''))
      buffers.delete(scenario)
    },
    onRunEnd(result) {
      write(`\n${summaryLine(result)}\n`)
    },
  }
}

function stepLines(scenario: Scenario, result: StepResult): string[] {
  const label = result.phase === 'finally' ? `finally: ${result.title}` : result.title
  if (result.verdict === 'skipped') return [`  ${MARK.skipped} ${label} (skipped: ${result.reason})`]
  const time = `${Math.round(result.durationMs)}ms`
  if (result.verdict === 'passed') return [`  ${MARK.passed} ${label}  ${time}`]
  return [`  ${MARK.failed} ${label}  ${time}`, ...formatFailure(result, scenario.file, '    ')]
}
