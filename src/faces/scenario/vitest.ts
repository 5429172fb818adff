/**
 * Scenarios inside a vitest suite (`doppel/vitest`): one `describe` per scenario, one `test` per step,
 * so vitest's own reporters (junit, tap, json, github-actions) and filters apply.
 *
 * @example
 * // test/scenarios.test.ts
 * import { describeScenarios } from 'doppel/vitest'
 * await describeScenarios('scenarios/')
 *
 * @module doppel/vitest
 */
import { randomBytes } from 'node:crypto'
import { afterAll, describe, test } from 'vitest'
import type { Scenario, StepResult } from './glossary.ts'
import { findScenarioFiles } from './load/find-scenario-files.ts'
import { loadScenarioFile } from './load/parse-scenario.ts'
import { formatFailure } from './reporters/format-failure.ts'
import { parseLabelExpression } from './runner/labels.ts'
import { planSkips } from './runner/plan.ts'
import { runScenario } from './runner/run-scenario.ts'
import { createTarget, type TargetConfig } from './targets/create-target.ts'
import type { Target } from './targets/target.ts'

export interface ScenarioSuiteOptions {
  /** `'emulator'` (default), a URL, a target config, or a target already created. */
  target?: TargetConfig | string | Target
  vars?: Record<string, string>
  /** Only scenarios whose labels match, e.g. `'ec2 and not iam'`. */
  label?: string
  /** Where relative paths start (default `process.cwd()`). */
  cwd?: string
  env?: Record<string, string | undefined>
}

/**
 * Registers scenario files (or directories of them) as vitest suites. Await it at the top level of a
 * test file: HTTP targets are probed before the tests are collected. Steps the target cannot run are
 * registered with `test.skip` and the reason in their name; steps skipped at run time call `skip(reason)`.
 */
export async function describeScenarios(paths: string | string[], options: ScenarioSuiteOptions = {}): Promise<void> {
  const cwd = options.cwd ?? process.cwd()
  const filter = options.label === undefined ? undefined : parseLabelExpression(options.label)
  const scenarios = findScenarioFiles(Array.isArray(paths) ? paths : [paths], cwd)
    .map((file) => loadScenarioFile(file))
    .filter((scenario) => !filter || filter(scenario.labels))
  const target = isTarget(options.target) ? options.target : await createTarget(options.target ?? 'emulator')
  if (!isTarget(options.target)) afterAll(() => target.close())
  const base = `r${randomBytes(3).toString('hex')}`
  scenarios.forEach((scenario, i) => registerScenario(scenario, target, `${base}${i + 1}`, options))
}

function registerScenario(scenario: Scenario, target: Target, runId: string, options: ScenarioSuiteOptions): void {
  describe(scenario.name, () => {
    const plan = planSkips(scenario, target)
    const waiting = new Map<string, { promise: Promise<StepResult>; resolve: (r: StepResult) => void; reject: (e: unknown) => void }>()
    let ended: { error: unknown } | undefined
    const slot = (key: string) => {
      let entry = waiting.get(key)
      if (!entry) {
        let resolve!: (r: StepResult) => void
        let reject!: (e: unknown) => void
        const promise = new Promise<StepResult>((res, rej) => {
          resolve = res
          reject = rej
        })
        promise.catch(() => undefined)
        entry = { promise, resolve, reject }
        waiting.set(key, entry)
        if (ended) reject(ended.error)
      }
      return entry
    }
    let run: Promise<void> | undefined
    let setupFailure: StepResult | undefined
    const start = () =>
      (run ??= runScenario(scenario, {
        target,
        runId,
        ...(options.vars && { vars: options.vars }),
        ...(options.env && { env: options.env }),
        onStep: (result) => {
          if (result.phase === 'setup' && result.verdict === 'failed') setupFailure = result
          slot(`${result.phase}:${result.index}`).resolve(result)
        },
      }).then(
        () => settle(new Error('the step did not run')),
        (error: unknown) => settle(error),
      ))
    const settle = (error: unknown) => {
      ended = { error }
      for (const entry of waiting.values()) entry.reject(error)
    }
    const check = async (key: string, skip: (note: string) => never) => {
      void start()
      const result = await slot(key).promise
      if (result.verdict === 'skipped') skip(result.reason ?? 'skipped')
      if (result.verdict === 'failed') throw new Error(formatFailure(result, scenario.file).join('\n'))
    }
    if (scenario.fixtures !== undefined && !plan.scenario) test('setup: fixtures', (context) => check('setup:0', (note) => context.skip(note)))
    for (const step of [...scenario.steps, ...scenario.finally]) {
      const name = step.phase === 'finally' ? `finally: ${step.title}` : step.title
      const reason = plan.steps.get(step)
      if (reason) test.skip(`${name} (skipped: ${reason})`, () => undefined)
      else test(name, (context) => check(`${step.phase}:${step.index}`, (note) => context.skip(note)))
    }
    afterAll(async () => {
      await run
      if (setupFailure && scenario.fixtures === undefined) throw new Error(formatFailure(setupFailure, scenario.file).join('\n'))
    })
  })
}

function isTarget(value: unknown): value is Target {
  return typeof value === 'object' && value !== null && 'open' in value && 'capabilities' in value
}
