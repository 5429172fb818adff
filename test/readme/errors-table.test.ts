// docs/errors.md's table is ERROR_CODES as each floor's list writes it (src/core/doppel-error.ts, then every
// floor's error-codes.ts): every code, in order, with its meaning word for word, and nothing else.
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { ERROR_CODES } from '../../src/index.ts'

it('docs/errors.md tables every code of ERROR_CODES with its meaning, in order', () => {
  const guide = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8')
  const rows = [...guide.matchAll(/^\| `(\w+)` \| (.*) \|$/gm)].map((match) => [match[1], match[2]])
  expect(rows).toEqual(Object.entries(ERROR_CODES))
})
