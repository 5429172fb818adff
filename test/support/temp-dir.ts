import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'

// Registered on the importing test file (its module runs while the file's tests are collected).
const made: string[] = []
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A fresh `doppel-<name>-…` folder in the temp directory, removed with its contents after the file's tests. */
export function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `doppel-${name}-`))
  made.push(dir)
  return dir
}
