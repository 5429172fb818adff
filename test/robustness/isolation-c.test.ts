import { describe, it } from 'vitest'
import { isolatedInstances } from './isolation-world.ts'

// One of several files that vitest runs in parallel workers, each with its own writes to same-seed instances.
describe('isolation (c)', () => {
  it('same-seed instances written at once each see only their own records', async () => {
    await isolatedInstances('c', 10)
  })
})
