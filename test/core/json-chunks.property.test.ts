import fc from 'fast-check'
import { expect, it } from 'vitest'
import { jsonChunks } from '../../src/core/json-chunks.ts'

const text = async (value: unknown) => {
  let out = ''
  for await (const piece of jsonChunks(value, async () => {})) out += piece
  return out
}

// The pieces of a snapshot or journal answer, put together, are what JSON.stringify writes: byte for byte.
it('writes any JSON value, undefined and toJSON fields included, exactly as JSON.stringify', async () => {
  const value = fc.oneof(
    fc.jsonValue(),
    fc.dictionary(fc.string(), fc.oneof(fc.constant(undefined), fc.jsonValue(), fc.date({ noInvalidDate: true }), fc.constant(Buffer.from('ab')))),
    fc.array(fc.oneof(fc.constant(undefined), fc.jsonValue())),
  )
  await fc.assert(fc.asyncProperty(value, async (v) => {
    expect(await text(v)).toBe(JSON.stringify(v))
  }), { numRuns: 300 })
})

it('writes a large array in pieces, and a generator as an array of what it yields', async () => {
  const records = Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `record-${i}`, tags: { a: 'x'.repeat(10) } }))
  const pieces: string[] = []
  for await (const piece of jsonChunks({ records }, async () => {})) pieces.push(piece)
  expect(pieces.length).toBeGreaterThan(10)
  expect(pieces.join('')).toBe(JSON.stringify({ records }))
  function* lazy() {
    yield { a: 1 }
    yield [2]
  }
  expect(await text({ entries: lazy() })).toBe('{"entries":[{"a":1},[2]]}')
})
