import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { describeScenarios } from '../../src/faces/scenario/vitest.ts'
import { tempDir } from '../support/temp-dir.ts'

// The shipped scenarios, registered as suites of this very file: each step is a test that must pass.
await describeScenarios('scenarios/')

interface AssertionResult {
  ancestorTitles: string[]
  title: string
  status: 'passed' | 'failed' | 'skipped' | 'pending'
  failureMessages: string[]
}

describe('doppel/vitest in a nested vitest run', () => {
  it('registers a describe per scenario and a test per step, with static and run-time skips', async () => {
    const out = join(tempDir('vitest'), 'report.json')
    const vitest = join(process.cwd(), 'node_modules/.bin/vitest')
    await promisify(execFile)(vitest, ['run', '--config', 'test/scenario/vitest-suite/vitest.config.ts', '--reporter=json', `--outputFile=${out}`], {
      cwd: process.cwd(),
    }).catch((error: { code?: number }) => {
      if (error.code !== 1) throw error
    })
    const report = JSON.parse(readFileSync(out, 'utf8')) as { testResults: { assertionResults: AssertionResult[] }[] }
    const tests = report.testResults.flatMap((file) => file.assertionResults)
    expect(tests.map((t) => [t.ancestorTitles.join(' > '), t.title, t.status])).toEqual([
      ['a flow on a target without a clock', 'create', 'passed'],
      ['a flow on a target without a clock', 'wrong', 'failed'],
      ['a flow on a target without a clock', 'after-failure', 'skipped'],
      ['a flow on a target without a clock', 'wait (skipped: target "plain" lacks capability "clock" and 73h is longer than its maxRealWait)', 'skipped'],
      ['a flow on a target without a clock', 'finally: cleanup', 'passed'],
    ])
    expect(tests[1]!.failureMessages.join('\n')).toContain('status: expected 404, got 200')
  }, 60_000)
})
