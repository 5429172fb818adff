import type { Explanation } from '../../../core/explanation.ts'
import type { Mismatch, Observed, RequestSummary, Scenario, ScenarioResult, Step, StepResult, Verdict } from '../glossary.ts'
import { checkExpectation, type Expectation } from '../expect/check-expectation.ts'
import { parseJsonPath, queryJsonPath } from '../expressions/json-path.ts'
import { evaluate, parseExpression, render, TemplateError, type Scope } from '../expressions/template.ts'
import { stripBraces } from '../expect/validate-expectation.ts'
import type { Target, TargetSession } from '../targets/target.ts'
import { performAction } from './perform-action.ts'
import { planSkips, usesAuth, type Plan } from './plan.ts'

export interface ScenarioRunOptions {
  target: Target
  /** `run.id` of this scenario run: unique per scenario, for names on shared servers. */
  runId: string
  /** `--var` values; they replace the scenario's own. */
  vars?: Record<string, string>
  env?: Record<string, string | undefined>
  /** Called as each step (and the fixtures set-up) finishes. */
  onStep?: (result: StepResult) => void
}

const KEEP_REFERENCES: ReadonlySet<string> = new Set(['$sameAs'])

/**
 * Runs one scenario: fixtures, steps in order (the first failure stops the main steps), then `finally`
 * steps, which always run. Skips come from the plan (missing capabilities, skipped dependencies).
 */
export async function runScenario(scenario: Scenario, options: ScenarioRunOptions): Promise<ScenarioResult> {
  const started = performance.now()
  const plan = planSkips(scenario, options.target)
  const results: StepResult[] = []
  const record = (result: StepResult) => {
    results.push(result)
    options.onStep?.(result)
  }
  const finish = (verdict: Verdict, reason?: string): ScenarioResult => ({
    file: scenario.file,
    name: scenario.name,
    labels: scenario.labels,
    verdict,
    ...(reason !== undefined && { reason }),
    steps: results,
    durationMs: performance.now() - started,
  })
  if (plan.scenario) {
    for (const step of [...scenario.steps, ...scenario.finally]) record(skipped(step, plan.scenario))
    return finish('skipped', plan.scenario)
  }

  let session: TargetSession
  try {
    session = await options.target.open({ runId: options.runId, isolateMount: usesAuth(scenario) })
  } catch (error) {
    const reason = `could not open the target: ${errorMessage(error)}`
    record(setupResult(scenario, 'failed', reason, 0, 'target'))
    for (const step of [...scenario.steps, ...scenario.finally]) record(skipped(step, 'not run: the target could not be opened'))
    return finish('failed', reason)
  }

  const captures: Record<string, Record<string, unknown>> = {}
  const scope: Scope = {
    vars: {},
    steps: captures,
    target: session.info,
    run: { id: options.runId },
    env: options.env ?? process.env,
  }
  const runner = new StepRunner(scenario, options, session, scope, captures, plan)
  try {
    let blocked: string | undefined
    let phase: 'vars' | 'fixtures' = 'vars'
    try {
      resolveVars(scenario, options.vars ?? {}, scope)
      if (scenario.fixtures !== undefined) {
        phase = 'fixtures'
        const setupStarted = performance.now()
        await runner.loadFixtures()
        record(setupResult(scenario, 'passed', undefined, performance.now() - setupStarted))
      }
    } catch (error) {
      blocked = `not run: the ${phase} failed to ${phase === 'fixtures' ? 'load' : 'resolve'}`
      record(setupResult(scenario, 'failed', errorMessage(error), 0, phase))
    }
    for (const step of scenario.steps) {
      const result = blocked ? runner.skip(step, blocked) : await runner.run(step)
      if (result.verdict === 'failed') blocked ??= `not run: step "${step.title}" failed`
      record(result)
    }
    for (const step of scenario.finally) record(await runner.run(step))
  } finally {
    await session.close().catch(() => undefined)
  }
  const failed = results.some((r) => r.verdict === 'failed')
  const allSkipped = results.every((r) => r.verdict === 'skipped')
  return finish(failed ? 'failed' : allSkipped ? 'skipped' : 'passed', allSkipped ? results[0]?.reason : undefined)
}

class StepRunner {
  #scenario: Scenario
  #options: ScenarioRunOptions
  #session: TargetSession
  #scope: Scope
  #captures: Record<string, Record<string, unknown>>
  #plan: Plan
  /** Ids of steps that did not pass: their captures are missing. */
  #unavailable = new Map<string, 'skipped' | 'failed'>()

  constructor(scenario: Scenario, options: ScenarioRunOptions, session: TargetSession, scope: Scope, captures: Record<string, Record<string, unknown>>, plan: Plan) {
    this.#scenario = scenario
    this.#options = options
    this.#session = session
    this.#scope = scope
    this.#captures = captures
    this.#plan = plan
  }

  async loadFixtures(): Promise<void> {
    const fixture = render(this.#scenario.fixtures, this.#scope) as { auth?: { mount?: string } }
    if (fixture.auth && fixture.auth.mount === undefined) fixture.auth.mount = this.#session.info.mount
    await this.#session.control.loadFixtures(fixture, this.#scenario.file, this.#scenario.locate)
  }

  async run(step: Step): Promise<StepResult> {
    const planned = this.#plan.steps.get(step)
    const dependency = step.dependsOn.find((id) => this.#unavailable.has(id))
    const reason = planned ?? (dependency ? `uses captures of ${this.#unavailable.get(dependency)} step "${dependency}"` : undefined)
    if (reason) return this.skip(step, reason)
    const outcome = await this.#execute(step)
    if (outcome.verdict !== 'passed' && step.id) this.#unavailable.set(step.id, 'failed')
    return outcome
  }

  skip(step: Step, reason: string): StepResult {
    if (step.id) this.#unavailable.set(step.id, 'skipped')
    return skipped(step, reason)
  }

  async #execute(step: Step): Promise<StepResult> {
    const started = performance.now()
    const result = (verdict: Verdict, extra: Partial<StepResult>): StepResult => ({
      title: step.title,
      ...(step.id !== undefined && { id: step.id }),
      phase: step.phase,
      index: step.index,
      line: step.line,
      verdict,
      mismatches: [],
      attempts: 1,
      durationMs: performance.now() - started,
      ...extra,
    })
    let args: unknown
    let expectation: Expectation | undefined
    let until: Expectation | undefined
    try {
      args = render(step.args, this.#scope)
      expectation = step.expect === undefined ? undefined : (render(step.expect, this.#scope, KEEP_REFERENCES) as Expectation)
      until = step.retry?.until === undefined ? undefined : (render(step.retry.until, this.#scope, KEEP_REFERENCES) as Expectation)
    } catch (error) {
      return result('failed', { reason: errorMessage(error) })
    }
    const resolveReference = (reference: string) => evaluate(parseExpression(stripBraces(reference)), this.#scope)
    let observed: Observed | undefined
    let request: RequestSummary | undefined
    let explain: (() => Promise<Explanation | undefined>) | undefined
    let attempts = 0
    const maxAttempts = 1 + (step.retry?.count ?? 0)
    try {
      for (;;) {
        attempts++
        const outcome = await performAction(step, args, {
          target: this.#options.target,
          session: this.#session,
          reloadFixtures: async () => {
            if (this.#scenario.fixtures !== undefined) await this.loadFixtures()
          },
        })
        observed = outcome.observed
        request = outcome.request
        explain = outcome.explain
        const goal = until ?? expectation
        if (!step.retry || attempts >= maxAttempts || !goal || checkExpectation(goal, observed, resolveReference).length === 0) break
        await new Promise((resolve) => setTimeout(resolve, step.retry!.intervalMs))
      }
    } catch (error) {
      return result('failed', { reason: errorMessage(error), attempts, ...(request && { request }) })
    }
    let mismatches: Mismatch[] = []
    try {
      mismatches = expectation ? checkExpectation(expectation, observed, resolveReference) : []
    } catch (error) {
      return result('failed', { reason: errorMessage(error), attempts, observed, ...(request && { request }) })
    }
    const details = { attempts, observed, ...(request && { request }), ...(expectation && { expected: expectation }) }
    if (mismatches.length > 0) {
      const explanation = await explain?.().catch(() => undefined)
      return result('failed', { ...details, mismatches, ...(explanation && { explanation }) })
    }
    const captureProblem = this.#capture(step, observed)
    if (captureProblem) return result('failed', { ...details, reason: captureProblem })
    return result('passed', details)
  }

  /** Stores the step's captures; returns why one could not be taken. */
  #capture(step: Step, observed: Observed): string | undefined {
    const values: Record<string, unknown> = {}
    for (const [name, expression] of Object.entries(step.capture ?? {})) {
      if (expression === 'status') values[name] = observed.status
      else if (expression.startsWith('header:')) {
        const header = expression.slice('header:'.length).trim()
        const value = observed.headers[header.toLowerCase()]
        if (value === undefined) return `capture "${name}": no ${header} header in the response`
        values[name] = value
      } else {
        const found = queryJsonPath(observed.body, parseJsonPath(expression))
        if (!found.found) return `capture "${name}": ${expression} is not in the response body`
        values[name] = found.value
      }
    }
    if (step.id !== undefined) this.#captures[step.id] = values
    return undefined
  }
}

function resolveVars(scenario: Scenario, overrides: Record<string, string>, scope: Scope): void {
  const vars = scope.vars as Record<string, unknown>
  for (const [name, value] of scenario.vars) {
    try {
      vars[name] = name in overrides ? overrides[name] : render(value, scope)
    } catch (error) {
      if (error instanceof TemplateError) throw new TemplateError(`vars.${name}: ${error.message}`)
      throw error
    }
  }
  for (const [name, value] of Object.entries(overrides)) if (!(name in vars)) vars[name] = value
}

function skipped(step: Step, reason: string): StepResult {
  return {
    title: step.title,
    ...(step.id !== undefined && { id: step.id }),
    phase: step.phase,
    index: step.index,
    line: step.line,
    verdict: 'skipped',
    reason,
    mismatches: [],
    attempts: 0,
    durationMs: 0,
  }
}

function setupResult(scenario: Scenario, verdict: Verdict, reason: string | undefined, durationMs: number, title = 'fixtures'): StepResult {
  return {
    title,
    phase: 'setup',
    index: 0,
    line: scenario.fixtures !== undefined ? scenario.locate(['fixtures']) : 1,
    verdict,
    ...(reason !== undefined && { reason }),
    mismatches: [],
    attempts: verdict === 'skipped' ? 0 : 1,
    durationMs,
  }
}

/** A failure's message; provider errors keep their code (`InvalidInstanceID.NotFound: …`). */
function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const code = (error as Error & { code?: unknown }).code
  if (error.name === 'CloudError' && typeof code === 'string') return `${code}: ${error.message}`
  const cause = (error as Error & { cause?: unknown }).cause
  if (error.message === 'fetch failed' && cause instanceof Error) return `fetch failed: ${cause.message}`
  return error.message
}
