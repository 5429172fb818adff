import { readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { expect, it } from 'vitest'
import { ERROR_CODES } from '../../src/index.ts'
import { typescriptFiles } from './typescript-files.ts'

// Each floor lists the error codes it throws (core/doppel-error.ts, then each floor's error-codes.ts): a code
// stands in the list of the lowest floor that throws it, so that no floor lists another floor's codes.

const SRC = resolve(import.meta.dirname, '../../src')
const FLOORS = ['core', 'services', 'features', 'faces', 'cli']
const floorOf = (path: string) => FLOORS.indexOf(path.includes('/') ? path.slice(0, path.indexOf('/')) : 'cli')


/** Where a code is thrown: `errorKind('Name', 'CODE')`, `super('CODE', …)`, `new DoppelError('CODE', …)`. */
const THROWN = /(?:errorKind\(\s*'\w+',\s*|super\(\s*|new DoppelError\(\s*)'(DOPPEL_\w+)'/g
/** A code as a floor's list writes it: `  DOPPEL_X: 'meaning',`. */
const LISTED = /^ {2}(DOPPEL_\w+): /gm

it('every code is listed by the lowest floor that throws it, and listed once', () => {
  const files = typescriptFiles(SRC).map((file) => ({ path: relative(SRC, file), text: readFileSync(file, 'utf8') }))
  const listedIn = new Map<string, string[]>()
  for (const { path, text } of files) {
    if (!path.endsWith('error-codes.ts') && path !== 'core/doppel-error.ts') continue
    for (const [, code] of text.matchAll(LISTED)) listedIn.set(code!, [...(listedIn.get(code!) ?? []), path])
  }
  const lowestThrower = new Map<string, string>()
  for (const { path, text } of files) {
    for (const [, code] of text.matchAll(THROWN)) {
      const known = lowestThrower.get(code!)
      if (known === undefined || floorOf(path) < floorOf(known)) lowestThrower.set(code!, path)
    }
  }
  const misplaced: string[] = []
  for (const [code, thrower] of lowestThrower) {
    const lists = listedIn.get(code) ?? []
    if (lists.length !== 1) misplaced.push(`${code} (thrown in ${thrower}) is listed in ${lists.length} lists: ${lists.join(', ')}`)
    else if (floorOf(lists[0]!) !== floorOf(thrower)) misplaced.push(`${code} is listed in ${lists[0]} but its lowest thrower is ${thrower}`)
  }
  expect(misplaced).toEqual([])
  // Every listed code is joined into ERROR_CODES.
  expect(new Set(listedIn.keys())).toEqual(new Set(Object.keys(ERROR_CODES)))
  expect(lowestThrower.size).toBeGreaterThan(30)
})
