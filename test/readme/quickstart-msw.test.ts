// README's Quickstart 1, pasted unchanged into a test file and run by vitest, with `doppel` resolving to
// this repository's sources (test/packaging/ runs the same block against the packed tarball).
import { execFile } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { expect, test } from 'vitest'
import { readmeQuickstart } from '../support/readme-blocks.ts'

const root = new URL('../../', import.meta.url)
const dir = new URL('.tmp/readme-quickstart/', root)

test('the README quickstart passes under vitest as written', async () => {
  mkdirSync(dir, { recursive: true })
  writeFileSync(new URL('login.test.ts', dir), readmeQuickstart())
  writeFileSync(
    new URL('vitest.config.ts', dir),
    `export default { test: { include: ['login.test.ts'] }, resolve: { alias: [
      { find: /^doppel$/, replacement: ${JSON.stringify(new URL('src/index.ts', root).pathname)} },
      { find: /^doppel\\/msw$/, replacement: ${JSON.stringify(new URL('src/faces/msw/index.ts', root).pathname)} },
    ] } }\n`,
  )
  const vitest = new URL('node_modules/vitest/vitest.mjs', root).pathname
  const { stdout } = await promisify(execFile)(process.execPath, [vitest, 'run', '--root', dir.pathname], { timeout: 60_000 })
  expect(stdout).toMatch(/Tests\s+.*1 passed/)
})
