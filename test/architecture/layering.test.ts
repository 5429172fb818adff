import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

// The floors of docs/architecture.md, read from its tables: the document and this test cannot drift apart.

const ROOT = resolve(import.meta.dirname, '../..')
const SRC = join(ROOT, 'src')
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g

interface Floors {
  /** Floor names, top to bottom: each builds on the ones before it. */
  order: string[]
  /** Folder patterns (`core/`, `services/*\/`, `index.ts`) and the floor each belongs to. */
  folders: { pattern: string; floor: string }[]
  /** `from → to` pairs of services allowed to import one another. */
  seams: Set<string>
}

/** The rows of the Markdown table that follows `heading` (its first table), as cells without backticks. */
function tableAfter(text: string, heading: string): string[][] {
  const at = text.indexOf(heading)
  if (at === -1) throw new Error(`docs/architecture.md has no "${heading}"`)
  const lines = text.slice(at).split('\n')
  const first = lines.findIndex((line) => line.trim().startsWith('|'))
  const rows: string[][] = []
  for (const line of lines.slice(first + 2)) {
    if (!line.trim().startsWith('|')) break
    rows.push(line.trim().slice(1, -1).split('|').map((cell) => cell.trim()))
  }
  return rows
}

const codeSpans = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!)

function readFloors(text: string): Floors {
  const rows = tableAfter(text, '## The floors')
  const seams = tableAfter(text, '**No service imports another**').map(([from, to]) => `${codeSpans(from!)[0]} → ${codeSpans(to!)[0]}`)
  return {
    order: rows.map(([floor]) => floor!),
    folders: rows.flatMap(([floor, folders]) => codeSpans(folders!).map((pattern) => ({ pattern, floor: floor! }))),
    seams: new Set(seams),
  }
}

/** The unit a src-relative path belongs to (`services/registry/`, `core/`, `index.ts`) and its floor. */
function placeOf(floors: Floors, path: string): { unit: string; floor: string } | undefined {
  for (const { pattern, floor } of floors.folders) {
    if (pattern.endsWith('*/')) {
      const parent = pattern.slice(0, -2)
      if (path.startsWith(parent) && path.indexOf('/', parent.length) !== -1) return { unit: path.slice(0, path.indexOf('/', parent.length) + 1), floor }
    } else if (pattern.endsWith('/') ? path.startsWith(pattern) : path === pattern) {
      return { unit: pattern, floor }
    }
  }
  return undefined
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

const srcPath = (path: string) => relative(SRC, path).split(sep).join('/')

/** Every import that breaks a floor rule, and every file that no floor holds. */
function layeringBreaks(floors: Floors, files: { path: string; text: string }[]): string[] {
  const rank = (floor: string) => floors.order.indexOf(floor)
  return files.flatMap(({ path, text }) => {
    const from = srcPath(path)
    const here = placeOf(floors, from)
    if (!here) return [`${from} is on no floor`]
    const breaks: string[] = []
    for (const match of text.matchAll(IMPORT)) {
      const to = srcPath(resolve(dirname(path), match[1]!))
      if (to.startsWith('../')) continue
      const there = placeOf(floors, to)
      if (!there) breaks.push(`${from} imports ${to}, which is on no floor`)
      else if (rank(there.floor) > rank(here.floor)) breaks.push(`${from} (${here.floor}) imports ${to} (${there.floor})`)
      else if (here.floor === 'services' && there.floor === 'services' && here.unit !== there.unit && !floors.seams.has(`${here.unit} → ${there.unit}`)) {
        breaks.push(`${from} imports ${to}: services import no other service but through a declared seam`)
      }
    }
    if (here.unit !== 'cli/' && !path.endsWith('.test.ts') && /\bprocess\.argv\b|\bparseArgs\s*\(/.test(text)) breaks.push(`${from} reads the command line outside cli/`)
    return breaks
  })
}

const floors = readFloors(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'))


describe('layering', () => {
  it('docs/architecture.md names five floors, top to bottom, and the one seam', () => {
    expect(floors.order).toEqual(['core', 'services', 'features', 'faces', 'cli'])
    expect([...floors.seams]).toEqual(['services/cloud-auth/ → services/fake-cloud/'])
  })

  it('every module of src/ sits on a floor and imports only from its own floor and those below it', () => {
    const files = sourceFiles(SRC).map((path) => ({ path, text: readFileSync(path, 'utf8') }))
    expect(files.length).toBeGreaterThan(100)
    expect(layeringBreaks(floors, files)).toEqual([])
  })

  it('catches an import up a floor, between services, off every floor, and a command-line read outside cli/', () => {
    const file = (name: string, text: string) => ({ path: join(SRC, name), text })
    expect(
      layeringBreaks(floors, [
        file('core/a.ts', "import type { X } from '../features/doppel/doppel.ts'"),
        file('services/control/b.ts', "const m = await import('../../faces/server/request-guard.ts')"),
        file('services/registry/c.ts', "export { y } from '../fake-cloud/index.ts'"),
        file('services/cloud-auth/d.ts', "import { e } from '../fake-cloud/index.ts'"),
        file('features/fixtures/e.ts', "import { f } from '../documents/yaml-source.ts'"),
        file('faces/record/f.ts', "import { g } from '../../cli/main.ts'"),
        file('stray/g.ts', ''),
        file('faces/server/h.ts', 'const args = process.argv.slice(2)'),
        file('cli/i.ts', 'const args = process.argv.slice(2)'),
      ]),
    ).toEqual([
      'core/a.ts (core) imports features/doppel/doppel.ts (features)',
      'services/control/b.ts (services) imports faces/server/request-guard.ts (faces)',
      'services/registry/c.ts imports services/fake-cloud/index.ts: services import no other service but through a declared seam',
      'faces/record/f.ts (faces) imports cli/main.ts (cli)',
      'stray/g.ts is on no floor',
      'faces/server/h.ts reads the command line outside cli/',
    ])
  })
})
