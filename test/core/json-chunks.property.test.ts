import fc from 'fast-check'
import { expect, it } from 'vitest'
import { JsonEntries, jsonChunks } from '../../src/core/json-chunks.ts'

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

it('writes JsonEntries as the object of its entries, in their order, each taken when reached, undefined values left out', async () => {
  const entries = fc.uniqueArray(fc.tuple(fc.string(), fc.oneof(fc.constant(undefined), fc.jsonValue())), { selector: ([key]) => key })
  await fc.assert(
    fc.asyncProperty(entries, async (list) => {
      const written = await text({ collection: new JsonEntries(list), after: 1 })
      const fields = list.filter(([, value]) => value !== undefined).map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`)
      expect(written).toBe(`{"collection":{${fields.join(',')}},"after":1}`)
    }),
    { numRuns: 200 },
  )
  // Entries are taken as the writing reaches them, with the pieces handed on between them.
  const taken: string[] = []
  function* records() {
    for (let i = 0; i < 20_000; i++) {
      taken.push(`k${i}`)
      yield [`k${i}`, { n: i, pad: 'x'.repeat(10) }] as const
    }
  }
  let pieces = 0
  for await (const piece of jsonChunks(new JsonEntries(records()), async () => {})) {
    pieces++
    expect(taken.length).toBeLessThan(20_000 - 1)
    if (pieces === 1) expect(piece.startsWith('{"k0":{"n":0,')).toBe(true)
    if (pieces === 3) break
  }
})
