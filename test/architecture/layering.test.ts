import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { typescriptFiles } from './typescript-files.ts'

// The floors of docs/architecture.md, read from its tables: the document and this test cannot drift apart.

const ROOT = resolve(import.meta.dirname, '../..')
const SRC = join(ROOT, 'src')
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g
/** A dynamic import whose specifier is no string literal (a template, a variable): nothing can read where it leads. */
const UNREADABLE_IMPORT = /\bimport\s*\(\s*(?!['"])(?=[^\s)])/
/**
 * Every way a module reads the command line: `process.argv`, `process?.argv`, `process['argv']`, through
 * `globalThis`, taken apart (`const { argv } = process`), imported from `node:process`, or `parseArgs(`.
 */
const COMMAND_LINE = [
  /\bprocess\s*\??\.\s*argv\b/,
  /\bprocess\s*(?:\?\.\s*)?\[\s*['"`]argv['"`]\s*\]/,
  /\{[^}]*\bargv\b[^}]*\}\s*=\s*(?:globalThis\s*\??\.\s*)?process\b/,
  /\bimport\s*\{[^}]*\bargv\b[^}]*\}\s*from\s*['"](?:node:)?process['"]/,
  /\bparseArgs\s*\(/,
]

interface Floors {
  /** Floor names, top to bottom: each builds on the ones before it. */
  order: string[]
  /** Folder patterns (`core/`, `services/*\/`, `index.ts`) and the floor each belongs to. */
  folders: { pattern: string; floor: string }[]
  /** `from → to` pairs of services allowed to import one another. */
  seams: Set<string>
  /** The units another unit's modules import only through their doors, and those doors' file names. */
  doors: { pattern: string; files: Set<string> }[]
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
  const doors = tableAfter(text, '**Into another unit only through its doors**').flatMap(([units, files]) =>
    codeSpans(units!).map((pattern) => ({ pattern, files: new Set(codeSpans(files!)) })),
  )
  return {
    order: rows.map(([floor]) => floor!),
    folders: rows.flatMap(([floor, folders]) => codeSpans(folders!).map((pattern) => ({ pattern, floor: floor! }))),
    seams: new Set(seams),
    doors,
  }
}

/** The unit with doors that holds a src-relative path (`services/registry/`, `core/routing/`) and every door file it has. */
function doorsOf(floors: Floors, path: string): { unit: string; files: Set<string> } | undefined {
  let found: { unit: string; files: Set<string> } | undefined
  for (const { pattern, files } of floors.doors) {
    const parent = pattern.endsWith('*/') ? pattern.slice(0, -2) : pattern
    const end = path.indexOf('/', parent.length)
    if (!path.startsWith(parent) || (pattern.endsWith('*/') && end === -1)) continue
    const unit = pattern.endsWith('*/') ? path.slice(0, end + 1) : pattern
    if (found === undefined) found = { unit, files: new Set(files) }
    else if (found.unit === unit) for (const file of files) found.files.add(file)
  }
  return found
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
      } else {
        const door = doorsOf(floors, to)
        if (door && !from.startsWith(door.unit) && !door.files.has(to.slice(door.unit.length))) {
          breaks.push(`${from} imports ${to}: another unit is reached through its doors (${[...door.files].map((file) => door.unit + file).join(', ')})`)
        }
      }
    }
    if (UNREADABLE_IMPORT.test(text)) breaks.push(`${from} imports a module by a specifier that is no string literal`)
    if (here.unit !== 'cli/' && !path.endsWith('.test.ts') && COMMAND_LINE.some((pattern) => pattern.test(text))) breaks.push(`${from} reads the command line outside cli/`)
    return breaks
  })
}

/** The package's entry points (package.json `exports`), as the src-relative modules they are built from. */
const ENTRY_POINTS = new Set(
  Object.values(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports as Record<string, string | { default: string }>)
    .map((target) => (typeof target === 'string' ? target : target.default))
    .filter((target) => target.startsWith('./dist/'))
    .map((target) => target.slice('./dist/'.length).replace(/\.js$/, '.ts')),
)

/**
 * Every import of a test (`test/`, `bench/`) into `src/` past the test surface: a unit is reached through
 * its `index.ts`, a package entry point, or a door the doors table names for that one unit (the scenario
 * engine's `shared.ts`), so moving a file inside a unit touches no test. Core's modules outside `routing/`
 * and `snapshot/` and the commands of `cli/` are each their own door.
 */
function testSurfaceBreaks(floors: Floors, files: { path: string; text: string }[]): string[] {
  return files.flatMap(({ path, text }) => {
    const breaks: string[] = []
    for (const match of text.matchAll(IMPORT)) {
      const to = srcPath(resolve(dirname(path), match[1]!))
      if (to.startsWith('../') || ENTRY_POINTS.has(to)) continue
      const door = doorsOf(floors, to)
      const own = floors.doors.some(({ pattern, files }) => pattern === door?.unit && files.has(to.slice(pattern.length)))
      if (door && to !== `${door.unit}index.ts` && !own) breaks.push(`${relative(ROOT, path).split(sep).join('/')} imports src/${to}: tests reach a unit through its index.ts`)
    }
    return breaks
  })
}

const floors = readFloors(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'))

/** A planted module of `src/` (or, with `at: ROOT`, a test file) for the cases below. */
const file = (name: string, text: string, at = SRC) => ({ path: join(at, name), text })


describe('layering', () => {
  it('docs/architecture.md names five floors, top to bottom, and the one seam', () => {
    expect(floors.order).toEqual(['core', 'services', 'features', 'faces', 'cli'])
    expect([...floors.seams]).toEqual(['services/cloud-auth/ → services/fake-cloud/'])
  })

  it('every module of src/ sits on a floor and imports only from its own floor and those below it', () => {
    const files = typescriptFiles(SRC, { tests: true }).map((path) => ({ path, text: readFileSync(path, 'utf8') }))
    expect(files.length).toBeGreaterThan(100)
    expect(layeringBreaks(floors, files)).toEqual([])
  })

  it('docs/architecture.md names the units reached only through their doors', () => {
    expect(floors.doors.map(({ pattern }) => pattern)).toEqual(['services/*/', 'services/cloud-auth/', 'services/fake-cloud/', 'features/*/', 'features/fixtures/', 'faces/*/', 'faces/scenario/', 'core/routing/', 'core/snapshot/'])
  })

  it('catches an import up a floor, between services, off every floor, and a command-line read outside cli/', () => {
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
      'features/fixtures/e.ts imports features/documents/yaml-source.ts: another unit is reached through its doors (features/documents/index.ts, features/documents/control-routes.ts, features/documents/error-codes.ts)',
      'faces/record/f.ts (faces) imports cli/main.ts (cli)',
      'stray/g.ts is on no floor',
      'faces/server/h.ts reads the command line outside cli/',
    ])
  })

  it('tests and benchmarks reach src/ only through the package entry points and the units\' index.ts', () => {
    // This file's planted cases are strings, not imports.
    const files = ['test', 'bench']
      .flatMap((dir) => typescriptFiles(join(ROOT, dir), { tests: true }))
      .filter((path) => path !== import.meta.filename)
      .map((path) => ({ path, text: readFileSync(path, 'utf8') }))
    expect(files.length).toBeGreaterThan(150)
    expect(testSurfaceBreaks(floors, files)).toEqual([])
  })

  it('catches a test importing a module inside a unit, and lets an entry point, an index, a core module and a command through', () => {
    expect(
      testSurfaceBreaks(floors, [
        file('test/a/one.test.ts', "import { API_ROUTES } from '../../src/services/cloud-auth/routing/api-routes.ts'", ROOT),
        file('test/a/two.test.ts', "const { readTar } = await import('../../src/services/registry/archives/tar-reader.ts')", ROOT),
        file('test/a/three.test.ts', "import { mount } from '../../src/core/routing/route-row.ts'", ROOT),
        file('bench/four.ts', "import { classifyRequest } from '../src/features/doppel/route-request.ts'", ROOT),
        file('test/a/five.test.ts', "import { urls } from '../../src/services/registry/urls.ts'", ROOT),
        file(
          'test/a/fine.test.ts',
          [
            "import { createDoppel } from '../../src/index.ts'",
            "import { doppelSuite } from '../../src/faces/scenario/vitest.ts'",
            "import { render } from '../../src/faces/scenario/shared.ts'",
            "import { API_ROUTES } from '../../src/services/cloud-auth/index.ts'",
            "import { mount } from '../../src/core/routing/index.ts'",
            "import { Clock } from '../../src/core/clock.ts'",
            "import { main } from '../../src/cli/main.ts'",
            "import { helper } from './helpers.ts'",
          ].join('\n'),
          ROOT,
        ),
      ]),
    ).toEqual([
      'test/a/one.test.ts imports src/services/cloud-auth/routing/api-routes.ts: tests reach a unit through its index.ts',
      'test/a/two.test.ts imports src/services/registry/archives/tar-reader.ts: tests reach a unit through its index.ts',
      'test/a/three.test.ts imports src/core/routing/route-row.ts: tests reach a unit through its index.ts',
      'bench/four.ts imports src/features/doppel/route-request.ts: tests reach a unit through its index.ts',
      'test/a/five.test.ts imports src/services/registry/urls.ts: tests reach a unit through its index.ts',
    ])
  })

  it('catches an import into another unit past its doors, a dynamic import it cannot read, and every spelling of a command-line read', () => {
    expect(
      layeringBreaks(floors, [
        file('features/openapi/a.ts', "import { API_ROUTES } from '../../services/cloud-auth/routing/api-routes.ts'"),
        file('faces/msw/b.ts', "const { classifyRequest } = await import('../../features/doppel/route-request.ts')"),
        file('faces/record/c.ts', "export { x } from '../scenario/expressions/json-path.ts'"),
        file('services/control/d.ts', "import { mount } from '../../core/routing/route-row.ts'"),
        file('cli/e.ts', "import { startDoppelServer } from '../faces/server/start-doppel-server.ts'"),
        file('features/snapshot/f.ts', "import { SERVICES } from '../doppel/index.ts'\nimport { REGISTRY_URLS } from '../../services/registry/urls.ts'"),
        file('services/registry/g.ts', "import { x } from './model/state.ts'\nimport { shape } from '../../core/snapshot/index.ts'\nimport { clock } from '../../core/clock.ts'"),
        file('features/fixtures/h.ts', 'const module = await import(`../${name}/index.ts`)'),
        file('features/fixtures/i.ts', 'const module = await import(specifier)'),
        file('faces/server/j.ts', "const args = process['argv']"),
        file('faces/server/k.ts', 'const args = process["argv"].slice(2)'),
        file('faces/server/l.ts', 'const { argv } = process'),
        file('faces/server/m.ts', 'const { argv: args } = globalThis.process'),
        file('faces/server/n.ts', 'const args = globalThis.process.argv'),
        file('faces/server/o.ts', "import { argv } from 'node:process'"),
        file('faces/server/p.ts', 'const args = process?.argv'),
      ]),
    ).toEqual([
      'features/openapi/a.ts imports services/cloud-auth/routing/api-routes.ts: another unit is reached through its doors (services/cloud-auth/index.ts, services/cloud-auth/descriptor.ts, services/cloud-auth/urls.ts, services/cloud-auth/error-codes.ts, services/cloud-auth/auth-profile.ts)',
      'faces/msw/b.ts imports features/doppel/route-request.ts: another unit is reached through its doors (features/doppel/index.ts, features/doppel/control-routes.ts, features/doppel/error-codes.ts)',
      'faces/record/c.ts imports faces/scenario/expressions/json-path.ts: another unit is reached through its doors (faces/scenario/index.ts, faces/scenario/error-codes.ts, faces/scenario/shared.ts)',
      'services/control/d.ts imports core/routing/route-row.ts: another unit is reached through its doors (core/routing/index.ts)',
      'cli/e.ts imports faces/server/start-doppel-server.ts: another unit is reached through its doors (faces/server/index.ts, faces/server/error-codes.ts)',
      'features/fixtures/h.ts imports a module by a specifier that is no string literal',
      'features/fixtures/i.ts imports a module by a specifier that is no string literal',
      'faces/server/j.ts reads the command line outside cli/',
      'faces/server/k.ts reads the command line outside cli/',
      'faces/server/l.ts reads the command line outside cli/',
      'faces/server/m.ts reads the command line outside cli/',
      'faces/server/n.ts reads the command line outside cli/',
      'faces/server/o.ts reads the command line outside cli/',
      'faces/server/p.ts reads the command line outside cli/',
    ])
  })
})
