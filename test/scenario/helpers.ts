import { createDoppel, type Doppel } from '../../src/features/doppel/index.ts'
import { type Capability, createHttpTarget, parseScenario, runScenarios, type RunResult, type Target } from '../../src/faces/scenario/index.ts'
/** Scenario YAML from lines, with the required head. */
export function scenarioText(name: string, body: string[]): string {
  return [`version: 1`, `name: ${name}`, ...body, ''].join('\n')
}

/**
 * An HTTP target that is not a `doppel serve` (its health probe is a 404), served in process by an
 * emulator: it has only the capabilities given. No sockets.
 */
export async function plainHttpTarget(capabilities: Capability[], extra: { maxRealWait?: string } = {}): Promise<{ target: Target; doppel: Doppel }> {
  const doppel = createDoppel({ seed: 5 })
  const target = await createHttpTarget({
    name: 'plain',
    url: 'http://plain.test',
    token: 'root',
    capabilities,
    ...extra,
    fetch: async (input, init) => {
      const request = new Request(input, init)
      if (new URL(request.url).pathname.startsWith('/_doppel/')) return new Response('404 page not found\n', { status: 404 })
      return doppel.fetch(request)
    },
  })
  return { target, doppel }
}

/** Runs scenario texts against a target and returns the result. */
export async function run(target: Target, texts: string[], options: { vars?: Record<string, string>; failFast?: boolean; jobs?: number } = {}): Promise<RunResult> {
  const scenarios = texts.map((text, i) => parseScenario(text, `s${i}.yaml`))
  return runScenarios(scenarios, { target, runId: 'run', ...options })
}

/** `title: verdict (reason)` per step, for compact assertions. */
export function verdicts(result: RunResult, scenario = 0): string[] {
  return result.scenarios[scenario]!.steps.map((s) => `${s.title}: ${s.verdict}${s.reason ? ` (${s.reason})` : ''}`)
}
