import type { RunResult, StepResult } from '../glossary.ts'
import type { RunEvents } from '../runner/run-scenarios.ts'
import { formatFailure } from './format-failure.ts'

/**
 * JUnit XML, the format CI systems read: one `<testsuite>` per scenario, one `<testcase>` per step,
 * `<failure>` with the message and details, `<skipped>` with the reason.
 */
export function junitReporter(write: (text: string) => void): RunEvents {
  return {
    onRunEnd(result) {
      write(toJunitXml(result))
    },
  }
}

/** The run as a JUnit XML document. */
export function toJunitXml(result: RunResult): string {
  const steps = result.scenarios.flatMap((s) => s.steps)
  const count = (list: StepResult[], verdict: string) => list.filter((s) => s.verdict === verdict).length
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="doppel" tests="${steps.length}" failures="${count(steps, 'failed')}" errors="0" skipped="${count(steps, 'skipped')}" time="${seconds(result.durationMs)}">`,
  ]
  for (const scenario of result.scenarios) {
    lines.push(
      `  <testsuite name="${attr(scenario.name)}" file="${attr(scenario.file)}" tests="${scenario.steps.length}" failures="${count(scenario.steps, 'failed')}" errors="0" skipped="${count(scenario.steps, 'skipped')}" time="${seconds(scenario.durationMs)}">`,
    )
    for (const step of scenario.steps) {
      const name = step.phase === 'finally' ? `finally: ${step.title}` : step.phase === 'setup' ? `setup: ${step.title}` : step.title
      const open = `    <testcase classname="${attr(scenario.name)}" name="${attr(name)}" file="${attr(scenario.file)}" line="${step.line}" time="${seconds(step.durationMs)}"`
      if (step.verdict === 'passed') lines.push(`${open}/>`)
      else if (step.verdict === 'skipped') lines.push(`${open}>`, `      <skipped message="${attr(step.reason ?? '')}"/>`, '    </testcase>')
      else {
        const message = step.mismatches.map((m) => `${m.path}: ${m.message}`).join('; ') || step.reason || 'failed'
        lines.push(
          `${open}>`,
          `      <failure message="${attr(message)}" type="${step.mismatches.length > 0 ? 'AssertionError' : 'Error'}">${text(formatFailure(step, scenario.file).join('\n'))}</failure>`,
          '    </testcase>',
        )
      }
    }
    lines.push('  </testsuite>')
  }
  lines.push('</testsuites>')
  return lines.join('\n') + '\n'
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3)
}

/** Characters XML 1.0 cannot carry at all (control characters) are dropped. */
function clean(value: string): string {
  return value.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
}

function text(value: string): string {
  return clean(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

function attr(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;')
}
