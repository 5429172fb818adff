import type { RunResult } from '../glossary.ts'
import type { RunEvents } from '../runner/run-scenarios.ts'
import { summaryLine } from './summary-line.ts'

/** The whole run as one JSON document: the summary, then every scenario with its steps. */
export function jsonReporter(write: (text: string) => void): RunEvents {
  return {
    onRunEnd(result) {
      write(JSON.stringify(toJsonReport(result), null, 2) + '\n')
    },
  }
}

/** The run as plain data: what the JSON reporter prints. */
export function toJsonReport(result: RunResult): unknown {
  return {
    summary: { passed: result.passed, failed: result.failed, skipped: result.skipped, text: summaryLine(result) },
    target: result.target,
    durationMs: Math.round(result.durationMs),
    scenarios: result.scenarios.map((scenario) => ({
      ...scenario,
      durationMs: Math.round(scenario.durationMs),
      steps: scenario.steps.map((step) => ({ ...step, durationMs: Math.round(step.durationMs) })),
    })),
  }
}
