// docs/limits-and-differences.md's table of the auth service's differences is DEVIATIONS, row for row.
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { deviationRows } from './deviation-rows.ts'

it("docs/limits-and-differences.md tables every entry of the auth service's DEVIATIONS, in order", () => {
  const guide = readFileSync(new URL('../../docs/limits-and-differences.md', import.meta.url), 'utf8')
  const rows = deviationRows()
  const at = guide.indexOf(rows[0]!)
  expect(at).toBeGreaterThan(-1)
  expect(guide.slice(at).split('\n').slice(0, rows.length + 1)).toEqual([...rows, ''])
})
