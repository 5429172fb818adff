import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { readmeBlocks } from '../support/readme-blocks.ts'

it("docs/journal.md's doppel.explain example runs as pasted and prints what its comment says", () => {
  const [block] = readmeBlocks('ts', 'docs/journal.md')
  expect(block).toBeDefined()
  const index = new URL('../../src/index.ts', import.meta.url).pathname
  const dir = mkdtempSync(join(tmpdir(), 'doppel-journal-'))
  try {
    const file = join(dir, 'example.ts')
    writeFileSync(file, block!.replace("from 'doppel'", `from ${JSON.stringify(index)}`))
    const out = execFileSync(process.execPath, [file], { encoding: 'utf8' })
    expect(out.replace(/\s+/g, ' ')).toContain("403 { rule: 'token', seen: 'a token doppel never issued (or one a reset or restore dropped)'")
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 30_000)
