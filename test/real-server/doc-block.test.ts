// docs/vault-profile.md's block that runs the whole conformance suite against a real server, run as a reader
// would paste it, against the server scripts/real-server.sh started: the three states it reports are
// counted, and no difference is left unresolved.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RunResult } from '../../src/faces/scenario/index.ts'
import { realServerStates } from '../../src/faces/scenario/shared.ts'
import { blockFolder, runBlock } from '../readme/run-doc-block.ts'
import { docBlocks } from '../support/readme-blocks.ts'
import { realServer } from './real-server-env.ts'

const DOC = 'docs/vault-profile.md'
const server = realServer()

describe.skipIf(!server)(`${DOC}: the conformance suite against a real server`, () => {
  it('runs as written, and every scenario passes, cannot run there, or differs by a label that says why', async () => {
    const block = docBlocks(DOC).find((b) => b.noRun?.includes('test/real-server/doc-block.test.ts'))
    expect(block, `${DOC} has the block this test runs`).toBeDefined()
    const dir = blockFolder(DOC)
    await runBlock({ ...block!, noRun: undefined }, dir)
    const report = JSON.parse(readFileSync(join(dir, 'conformance-report.json'), 'utf8')) as {
      summary: Pick<RunResult, 'passed' | 'failed' | 'skipped'>
      scenarios: RunResult['scenarios']
    }
    const states = realServerStates({ ...report.summary, scenarios: report.scenarios, target: server!.addr, durationMs: 0 })
    console.log(`on the real server: ${states.pass} pass, ${states.cannotRun} cannot run against a real server, ${states.differs} differ (${states.unresolved} not resolved)`)
    expect(states.unresolved).toBe(0)
    expect(states.pass).toBeGreaterThan(50)
  })
})
