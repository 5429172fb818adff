import fc from 'fast-check'
import { expect, it } from 'vitest'
import { packLargeValue, putTexts, takeTexts, unpackLargeValue } from './large-values.ts'

const noPause = async () => undefined

/** Through the worker's path: packed, its texts taken out and sent, put back, unpacked. */
async function roundTrip(value: unknown): Promise<unknown> {
  const { skeleton, texts } = takeTexts(structuredClone(packLargeValue(value)))
  return unpackLargeValue(putTexts(structuredClone(skeleton), structuredClone(texts)), noPause)
}

it('gives back any JSON value as it was, keys in order, __proto__ a key like any other', async () => {
  const key = fc.oneof(fc.string(), fc.constant('__proto__'))
  const json = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 1 }), tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 1200 }),
    object: fc.dictionary(key, tie('value'), { maxKeys: 700 }),
  }))
  await fc.assert(
    fc.asyncProperty(json.value, async (value) => {
      const back = await roundTrip(value)
      expect(JSON.stringify(back)).toBe(JSON.stringify(value))
    }),
    { numRuns: 60 },
  )
})

it('cuts a large value into slices of at most 500 entries and 256 KiB, whatever the size of its entries', () => {
  const roles = Array.from({ length: 3000 }, (_, i) => ({ name: `role-${i}`, policies: Array.from({ length: 20 + (i % 50) * 40 }, (_, p) => `policy-${p}-${'p'.repeat(60)}`) }))
  const { texts } = takeTexts(packLargeValue({ roles, huge: 'x'.repeat(600_000) }))
  // A single string longer than a slice travels alone.
  expect(texts.filter((text) => text.length > 256 * 1024)).toEqual([`{"huge":${JSON.stringify('x'.repeat(600_000))}}`])
  for (const text of texts) expect(Object.keys(JSON.parse(text) as object).length).toBeLessThanOrEqual(500)
})
