import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

// Faces depend on services, never the reverse (docs/architecture.md, "The floors").

const SRC = resolve(import.meta.dirname, '../../src')

/** Folders (and files) of services: what every face builds on. */
const SERVICES = ['core', 'documents', 'fixtures', 'cloud-auth', 'registry', 'fake-cloud', 'control', 'snapshot', 'tenants', 'doppel.ts']
/** Faces: what nothing below them may import. */
const FACES = ['server', 'msw', 'scenario', 'cli', 'record']
/**
 * Shipped JSON Schemas stay in `scenario/schemas/` (a path every scenario file names for editors and
 * that `doppel/schemas/*` exports); they are data, read by `documents/schemas.ts`.
 */
const SHIPPED_ASSET = /^scenario\/schemas\/[\w-]+\.schema\.json$/

const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

const area = (path: string) => relative(SRC, path).split(sep)[0]!

/** Every relative import of a source file, as a path under src/. */
function importsOf(file: string, text: string): string[] {
  return [...text.matchAll(IMPORT)].map((match) => relative(SRC, resolve(dirname(file), match[1]!)).split(sep).join('/'))
}

/** The imports by which a service reaches up into a face. */
function layeringBreaks(files: { path: string; text: string }[]): string[] {
  return files.flatMap(({ path, text }) => {
    if (!SERVICES.includes(area(path))) return []
    return importsOf(path, text)
      .filter((target) => FACES.includes(target.split('/')[0]!) && !SHIPPED_ASSET.test(target))
      .map((target) => `${relative(SRC, path)} imports ${target}`)
  })
}

describe('layering', () => {
  it('no service module imports a face (server, msw, scenario, cli, record)', () => {
    const files = sourceFiles(SRC).map((path) => ({ path, text: readFileSync(path, 'utf8') }))
    expect(files.length).toBeGreaterThan(100)
    expect(layeringBreaks(files)).toEqual([])
  })

  it('catches static, dynamic and re-exporting imports of a face', () => {
    const file = (name: string, text: string) => ({ path: join(SRC, name), text })
    expect(
      layeringBreaks([
        file('doppel.ts', "import type { X } from './scenario/fixtures/index.ts'"),
        file('control/a.ts', "const m = await import('../server/request-guard.ts')"),
        file('core/b.ts', "export { y } from '../msw/index.ts'"),
        file('documents/c.ts', "import data from '../scenario/schemas/fixture.schema.json' with { type: 'json' }"),
        file('scenario/d.ts', "import { e } from '../cli/main.ts'"),
      ]),
    ).toEqual(['doppel.ts imports scenario/fixtures/index.ts', 'control/a.ts imports server/request-guard.ts', 'core/b.ts imports msw/index.ts'])
  })
})
