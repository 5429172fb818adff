import fc from 'fast-check'
import { beforeAll, expect, it } from 'vitest'
import { createDoppel, SnapshotError } from '../../src/index.ts'
import { richWorld } from './rich-world.ts'

// doppel.restore() checks at once, PUT /_doppel/snapshot in steps between records: one check, so the same
// snapshots restore and the same refusals come back, word for word.
let good: any
let paths: (string | number)[][]
beforeAll(async () => {
  good = { ...JSON.parse(JSON.stringify((await richWorld()).doppel.snapshot())), faults: [] }
  paths = []
  const walk = (value: unknown, at: (string | number)[]) => {
    paths.push(at)
    if (Array.isArray(value)) value.forEach((item, index) => walk(item, [...at, index]))
    else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) walk(item, [...at, key])
  }
  walk(good, [])
})

function replaced(path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value
  const copy = structuredClone(good)
  let node = copy
  for (const key of path.slice(0, -1)) node = node[key]
  node[path.at(-1)!] = value
  return copy
}

it('restores what doppel.restore() restores and refuses the rest with its words', async () => {
  await fc.assert(
    fc.asyncProperty(fc.nat(), fc.jsonValue({ maxDepth: 3 }), async (pick, value) => {
      // Through JSON text, as it travels (a -0 comes back 0).
      const text = JSON.stringify(replaced(paths[pick % paths.length]!, value))
      const snapshot = JSON.parse(text)
      const inProcess = createDoppel({ seed: 2 })
      let refusal: string | undefined
      try {
        inProcess.restore(snapshot)
      } catch (error) {
        expect(error).toBeInstanceOf(SnapshotError)
        refusal = (error as Error).message
      }
      const overHttp = createDoppel({ seed: 2 })
      const response = await overHttp.fetch('http://doppel.test/_doppel/snapshot', {
        method: 'PUT',
        headers: { 'X-Service-Token': 'root', 'Content-Type': 'application/json' },
        body: text,
      })
      if (refusal === undefined) {
        expect(response.status).toBe(204)
        const { taken_at: _a, ...restored } = overHttp.snapshot() as unknown as Record<string, unknown>
        const { taken_at: _b, ...expected } = inProcess.snapshot() as unknown as Record<string, unknown>
        expect(restored).toEqual(expected)
        // Records measured while they were checked count what they count when written.
        expect(overHttp.store.bytes).toBe(inProcess.store.bytes)
      } else {
        expect(response.status).toBe(400)
        expect(await response.json()).toEqual({ errors: [refusal] })
      }
    }),
    { numRuns: 150 },
  )
})
