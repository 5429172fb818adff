import { describe, expect, it } from 'vitest'
import { createEmulatorTarget } from '../../src/faces/scenario/index.ts'
import { realServerStates, realServerSummary } from '../../src/faces/scenario/shared.ts'
import { plainHttpTarget, run, scenarioText } from './helpers.ts'

const list = ['steps:', '  - request: { path: "/v1/auth/${{ target.mount }}/roles", query: { list: "true" } }', '    expect: { status: 404 }']
const scenarios = [
  scenarioText('runs', ['labels: [cloud-auth]', ...list]),
  scenarioText('clock', ['labels: [cloud-auth, needs-control-api]', ...list]),
  // A label named for what every object inherits is no known difference.
  scenarioText('inherited', ['labels: [cloud-auth, needs-control-api, constructor]', ...list]),
  scenarioText('mount', ['labels: [cloud-auth, needs-unconfigured-mount]', ...list]),
  scenarioText('openbao', ['labels: [cloud-auth, differs-from-openbao]', ...list]),
  scenarioText('spec', ['labels: [cloud-auth, differs-from-real, differs-from-vault]', ...list]),
  scenarioText('status', ['labels: [cloud-auth, differs-from-real]', ...list]),
  scenarioText('wrong', ['labels: [cloud-auth]', 'steps:', '  - request: { path: "/v1/auth/${{ target.mount }}/roles", query: { list: "true" } }', '    expect: { status: 200 }']),
]

describe('a real server skips scenarios on their labels, and the run counts three states', () => {
  it('skips the labelled scenarios with the label as the reason on a server that is not doppel', async () => {
    const { target } = await plainHttpTarget([])
    expect(target.info.real).toBe(true)
    const result = await run(target, scenarios)
    expect(result.scenarios.map((s) => `${s.name}: ${s.verdict}${s.reason ? ` (${s.reason})` : ''}`)).toEqual([
      'runs: passed',
      "clock: skipped (not run on a real server: it needs doppel's control API or virtual clock (label needs-control-api))",
      "inherited: skipped (not run on a real server: it needs doppel's control API or virtual clock (label needs-control-api))",
      'mount: skipped (not run on a real server: it expects a mount without the configuration a real server needs to reach the fake cloud (label needs-unconfigured-mount))',
      "openbao: skipped (not run on a real server: OpenBao's server answers differently from Vault's here (label differs-from-openbao))",
      "spec: skipped (not run on a real server: doppel follows the spec where Vault's method does not (label differs-from-vault))",
      'status: passed',
      'wrong: failed',
    ])
    expect(realServerStates(result)).toEqual({ pass: 2, cannotRun: 3, differs: 3, unresolved: 1 })
    expect(realServerSummary(result)).toBe('on the real server: 2 pass, 3 cannot run against a real server, 3 differ (1 not resolved)')
  })

  it('runs them all on doppel', async () => {
    const target = await createEmulatorTarget()
    expect(target.info.real).toBeFalsy()
    const result = await run(target, scenarios)
    expect(result.scenarios.map((s) => s.verdict)).toEqual(['passed', 'passed', 'passed', 'passed', 'passed', 'passed', 'passed', 'failed'])
  })
})
