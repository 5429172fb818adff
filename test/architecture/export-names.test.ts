import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../support/temp-dir.ts'
import { exportNameClashes } from './export-names.ts'
import { typescriptFiles } from './typescript-files.ts'

// One exported name, one job: a reader who meets `ROUTES` or `Caller` in an import knows which one it is.
// The fixture file's types are generated from its JSON Schema (scripts/fixture-types.ts) and describe the
// YAML a user writes, so they keep the schema's names.
const SRC = resolve(import.meta.dirname, '../../src')
const GENERATED = new Set([join(SRC, 'features/fixtures/fixture-document.ts')])


describe("src/'s exported names", () => {
  it('name one declaration each', () => {
    expect(exportNameClashes(typescriptFiles(SRC).filter((path) => !GENERATED.has(path)), SRC)).toEqual([])
  })

  it('are caught when two modules export one name for different declarations, not when an index.ts re-exports one', () => {
    const dir = tempDir('export-names')
    const files = {
      'management.ts': 'export const ROUTES = [1]\n',
      'read.ts': 'export const ROUTES = [2]\n',
      'index.ts': "export { ROUTES } from './management.ts'\nexport type { Shared } from './types.ts'\n",
      'types.ts': 'export interface Shared { a: number }\n',
      'user.ts': "export type { Shared } from './index.ts'\n",
    }
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
    expect(exportNameClashes(Object.keys(files).map((name) => join(dir, name)), dir)).toEqual(['ROUTES: management.ts, read.ts'])
  })
})
