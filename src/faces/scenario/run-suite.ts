import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, relative } from 'node:path'
import type { CliIo } from '../../core/cli-io.ts'
import { ScenarioError } from '../../features/documents/index.ts'
import type { Scenario } from './glossary.ts'
import { loadScenarioFile } from './load/parse-scenario.ts'
import { createReporter, type ReporterName } from './reporters/index.ts'
import type { LabelFilter } from './runner/labels.ts'
import { realServerSummary } from './runner/real-server-labels.ts'
import { runScenarios, type RunEvents } from './runner/run-scenarios.ts'
import { createTarget, type TargetConfig } from './targets/create-target.ts'
import { TargetUnreachableError } from './targets/target.ts'

/** Exit codes, as CI tells "the server is down" from "the server is wrong". */
export const EXIT = { passed: 0, usage: 1, invalid: 2, unreachable: 3, failed: 4 } as const

export interface SuiteOptions {
  /** The command the lines on stderr are from (`run`, `conformance`). */
  command: string
  /** Scenario files, absolute; shown relative to `io.cwd`. */
  files: string[]
  /** Only the scenarios whose labels it accepts. */
  filter?: LabelFilter
  /** List the selected scenarios instead of running them. */
  list: boolean
  target: TargetConfig
  vars: Record<string, string>
  jobs: number
  failFast: boolean
  reporter: ReporterName
  /** Absolute path the report is written to; progress still goes to stdout. */
  out?: string
}

/**
 * Validates every scenario file, then lists or runs the selected ones against the target and reports.
 * Resolves with the exit code (see EXIT). A target that cannot be made throws TargetError or
 * ScenarioError: the options were wrong.
 */
export async function runSuite(options: SuiteOptions, io: CliIo): Promise<number> {
  const scenarios: Scenario[] = []
  const problems: string[] = []
  for (const file of options.files) {
    try {
      scenarios.push(loadScenarioFile(file, display(file, io.cwd)))
    } catch (error) {
      if (!(error instanceof ScenarioError)) throw error
      problems.push(...error.lines())
    }
  }
  if (problems.length > 0) {
    io.stderr(`${problems.join('\n')}\n${problems.length} problem${problems.length === 1 ? '' : 's'} found; nothing was run.\n`)
    return EXIT.invalid
  }
  const selected = options.filter ? scenarios.filter((scenario) => options.filter!(scenario.labels)) : scenarios
  if (options.list) {
    for (const scenario of selected) {
      io.stdout(`${scenario.file}  ${scenario.name}${scenario.labels.length > 0 ? `  [${scenario.labels.join(', ')}]` : ''}\n`)
    }
    io.stdout(`${selected.length} scenario${selected.length === 1 ? '' : 's'}\n`)
    return EXIT.passed
  }

  let target
  try {
    target = await createTarget(options.target)
  } catch (error) {
    if (!(error instanceof TargetUnreachableError)) throw error
    io.stderr(`doppel ${options.command}: ${error.message}\n`)
    return EXIT.unreachable
  }
  const reporters: RunEvents[] = []
  let report = ''
  if (options.out === undefined) {
    reporters.push(createReporter(options.reporter, io.stdout))
  } else {
    reporters.push(createReporter(options.reporter, (text) => (report += text)))
    if (options.reporter !== 'pretty') reporters.push(createReporter('pretty', io.stdout))
  }
  try {
    const result = await runScenarios(selected, { target, vars: options.vars, jobs: options.jobs, failFast: options.failFast, reporters })
    if (target.info.real) io.stderr(`doppel ${options.command}: ${realServerSummary(result)}\n`)
    if (options.out !== undefined) {
      mkdirSync(dirname(options.out), { recursive: true })
      writeFileSync(options.out, report)
    }
    return result.failed > 0 ? EXIT.failed : EXIT.passed
  } finally {
    await target.close()
  }
}

function display(file: string, cwd: string): string {
  const shown = relative(cwd, file)
  return shown.startsWith('..') ? file : shown
}
