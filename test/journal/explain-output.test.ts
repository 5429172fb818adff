import { describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { createDoppelServer, listen } from '../../src/faces/server/index.ts'
import { createReporter, createTarget, parseScenario, runScenarios } from '../../src/faces/scenario/index.ts'
import { formatReport } from '../../src/faces/record/index.ts'
import { scenarioText } from '../scenario/helpers.ts'

// The explanation reaches whoever reads a failure: `doppel.explain` in a test, a failing scenario step
// (both targets), `doppel compare`'s difference lines. The client's answer is the same with or without.

const REFUSED = scenarioText('refused', [
  'steps:',
  '  - id: lookup',
  '    request: { path: /v1/auth/token/lookup-self, headers: { X-Service-Token: hvs.never-issued } }',
  '    expect: { status: 200 }',
])

async function prettyRun(target: Awaited<ReturnType<typeof createTarget>>): Promise<string> {
  let text = ''
  await runScenarios([parseScenario(REFUSED, 'refused.yaml')], { target, runId: 'r', reporters: [createReporter('pretty', (s) => (text += s))] })
  return text
}

describe('doppel.explain(response)', () => {
  it('gives the refusal\'s explanation for the response doppel.fetch returned; nothing for a success', async () => {
    const doppel = createDoppel()
    const refused = await doppel.fetch('http://doppel.test/v1/auth/token/lookup-self', { headers: { 'X-Service-Token': 'hvs.nope' } })
    expect(await refused.json()).toEqual({ errors: ['permission denied'] })
    expect(doppel.explain(refused)).toEqual({ rule: 'token', seen: expect.stringContaining('never issued'), hint: expect.any(String) })
    const fine = await doppel.fetch('http://doppel.test/v1/auth/token/lookup-self', { headers: { 'X-Service-Token': 'root' } })
    expect(doppel.explain(fine)).toBeUndefined()
    expect(refused.headers.get('x-doppel-explanation')).toBeNull()
  })
})

describe('a failing scenario step prints the explanation', () => {
  it('on the emulator target', async () => {
    const text = await prettyRun(await createTarget('emulator'))
    expect(text).toContain('why (doppel): token: saw a token doppel never issued')
  })

  it('on an HTTP target that is a doppel serve (read from GET /_doppel/journal)', async () => {
    const running = await listen(createDoppelServer(createDoppel()), 0, '127.0.0.1')
    try {
      const text = await prettyRun(await createTarget(running.url))
      expect(text).toContain('why (doppel): token: saw a token doppel never issued')
    } finally {
      await running.close()
    }
  })

  it('and in the JSON report', async () => {
    let json = ''
    await runScenarios([parseScenario(REFUSED, 'refused.yaml')], { target: await createTarget('emulator'), runId: 'r', reporters: [createReporter('json', (s) => (json += s))] })
    expect(json).toContain('"explanation"')
  })
})

describe('doppel compare', () => {
  it("prints doppel's explanation under a difference line", () => {
    const line = formatReport.line({
      index: 3,
      method: 'POST',
      path: '/v1/auth/cloud/login',
      differences: [{ kind: 'status', path: 'status', upstream: 200, doppel: 400 }],
      explanation: { rule: 'role web: bound_ami_id', seen: 'ami-bad', expected: '[ami-good]' },
    })
    expect(line).toBe('DIFF #3 POST /v1/auth/cloud/login: status 200 ≠ 400\n  why (doppel): role web: bound_ami_id: saw ami-bad; expected [ami-good]')
  })
})
