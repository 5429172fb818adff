// Every fenced block of README.md, CONTRIBUTING.md and docs/ runs as written (run-doc-block.ts says how),
// or says in its fence why it cannot run here (`no-run: <why>`): those are listed as skipped tests.
import { beforeAll, describe, expect, it } from 'vitest'
import { docBlocks, documentedFiles } from '../support/readme-blocks.ts'
import { blockFolder, runBlock } from './run-doc-block.ts'

for (const file of documentedFiles()) {
  const blocks = docBlocks(file)
  if (blocks.length === 0) continue
  describe(file, () => {
    let dir = ''
    beforeAll(() => {
      dir = blockFolder(file)
    })
    for (const block of blocks) {
      const name = `${file}:${block.line} ${block.language}`
      if (block.noRun !== undefined) {
        it(`${name} says why it does not run`, () => expect(block.noRun).not.toBe(''))
        it.skip(`${name} — no-run: ${block.noRun}`, () => {})
      } else {
        it(`${name} runs`, { timeout: 120_000 }, async () => {
          await runBlock(block, dir)
        })
      }
    }
  })
}
