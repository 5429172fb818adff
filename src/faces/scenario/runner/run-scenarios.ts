import { randomBytes } from 'node:crypto'
import type { RunResult, Scenario, ScenarioResult, StepResult } from '../glossary.ts'
import type { Target } from '../targets/target.ts'
import { createControlLock } from './control-lock.ts'
import { isControlStep } from './plan.ts'
import { runScenario } from './run-scenario.ts'

/** What reporters hear while a run goes. */
export interface RunEvents {
  onRunStart?(info: { target: string; scenarios: readonly Scenario[]; jobs: number }): void
  onScenarioStart?(scenario: Scenario): void
  onStep?(scenario: Scenario, result: StepResult): void
  onScenarioEnd?(scenario: Scenario, result: ScenarioResult): void
  onRunEnd?(result: RunResult): void
}

export interface RunOptions {
  target: Target
  /** `--var k=v` values; they replace the scenarios' own. */
  vars?: Record<string, string>
  env?: Record<string, string | undefined>
  /** Scenarios run at the same time (default 1). On the emulator each has its own instance. */
  jobs?: number
  /** Start no further scenario after one fails; the rest are reported skipped. */
  failFast?: boolean
  /** Base of `run.id` (default: 6 random characters). Each scenario appends its position. */
  runId?: string
  reporters?: RunEvents[]
}

/**
 * Runs scenarios against a target and reports as it goes. Results come back in the input order, and a
 * scenario is counted once: passed, failed or skipped.
 *
 * @example
 * const result = await runScenarios([parseScenario(text, 'x.yaml')], { target: await createTarget('emulator') })
 */
export async function runScenarios(scenarios: readonly Scenario[], options: RunOptions): Promise<RunResult> {
  const started = performance.now()
  const reporters = options.reporters ?? []
  const emit = <K extends keyof RunEvents>(event: K, ...args: Parameters<NonNullable<RunEvents[K]>>) => {
    for (const reporter of reporters) (reporter[event] as ((...a: unknown[]) => void) | undefined)?.call(reporter, ...args)
  }
  const jobs = Math.max(1, Math.floor(options.jobs ?? 1))
  const base = options.runId ?? `r${randomBytes(3).toString('hex')}`
  emit('onRunStart', { target: options.target.info.name, scenarios, jobs })
  const results: ScenarioResult[] = new Array(scenarios.length)
  let next = 0
  let stopped = false
  // On a server (one clock for all), a scenario that moves the clock, faults or resets runs alone.
  const lock = createControlLock()
  const alone = (scenario: Scenario) => options.target.info.kind === 'http' && [...scenario.steps, ...scenario.finally].some(isControlStep)
  const worker = async () => {
    for (;;) {
      const index = next++
      if (index >= scenarios.length) return
      const scenario = scenarios[index]!
      emit('onScenarioStart', scenario)
      const result = stopped
        ? notRun(scenario)
        : await lock.run(alone(scenario), () =>
            runScenario(scenario, {
              target: options.target,
              runId: `${base}${index + 1}`,
              ...(options.vars && { vars: options.vars }),
              ...(options.env && { env: options.env }),
              onStep: (step) => emit('onStep', scenario, step),
            }),
          )
      if (result.verdict === 'failed' && options.failFast) stopped = true
      results[index] = result
      emit('onScenarioEnd', scenario, result)
    }
  }
  await Promise.all(Array.from({ length: Math.min(jobs, scenarios.length) }, worker))
  const run: RunResult = {
    target: options.target.info.name,
    passed: results.filter((r) => r.verdict === 'passed').length,
    failed: results.filter((r) => r.verdict === 'failed').length,
    skipped: results.filter((r) => r.verdict === 'skipped').length,
    scenarios: results,
    durationMs: performance.now() - started,
  }
  emit('onRunEnd', run)
  return run
}

function notRun(scenario: Scenario): ScenarioResult {
  const reason = 'not run: --fail-fast stopped the run after a failure'
  return {
    file: scenario.file,
    name: scenario.name,
    labels: scenario.labels,
    verdict: 'skipped',
    reason,
    steps: [...scenario.steps, ...scenario.finally].map((step) => ({
      title: step.title,
      ...(step.id !== undefined && { id: step.id }),
      phase: step.phase,
      index: step.index,
      line: step.line,
      verdict: 'skipped' as const,
      reason,
      mismatches: [],
      attempts: 0,
      durationMs: 0,
    })),
    durationMs: 0,
  }
}
