import { describe, expect, it } from 'vitest'
import { corpusCoverage } from './endpoints.ts'
import type { RobustWorld } from './robust-world.ts'
import { routeInventory } from './route-inventory.ts'

// The bad-input corpus is built from the route inventory: a route added to any table without bad input the
// corpus can derive or a hand entry saying why none applies fails here, and so does a hand entry whose route
// was renamed or removed.
const noWorld = (): RobustWorld => {
  throw new Error('coverage is decided without building a request')
}

describe('the bad-input corpus covers every declared route', () => {
  it('reads routes of every service from their tables', () => {
    const services = new Set(routeInventory().map((row) => row.service))
    expect([...services].sort()).toEqual(['cloud-auth', 'control', 'fake-cloud', 'registry'])
  })

  it('has bad input, or a reason for none, for every route', () => {
    expect(corpusCoverage(noWorld).uncovered).toEqual([])
  })

  it('names no route that does not exist in its hand table', () => {
    expect(corpusCoverage(noWorld).unknown).toEqual([])
  })
})
