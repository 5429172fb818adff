import { describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'

describe('emulator instances', () => {
  it('the same seed gives the same random values, a different seed different ones', () => {
    const a = createDoppel({ seed: 42 })
    const b = createDoppel({ seed: 42 })
    const c = createDoppel({ seed: 43 })
    const draw = (d: typeof a) => [d.random.uuid(), d.random.hex(17), d.random.int(1000)]
    const first = draw(a)
    expect(draw(b)).toEqual(first)
    expect(draw(c)).not.toEqual(first)
  })

  it('reset rewinds the random source and clock to the seeded start', async () => {
    const d = createDoppel({ seed: 'abc', clock: { start: '2024-01-01T00:00:00Z', frozen: true } })
    const id = d.random.uuid()
    d.clock.advance('73h')
    expect(d.clock.now().toISOString()).toBe('2024-01-04T01:00:00.000Z')
    await d.reset()
    expect(d.random.uuid()).toBe(id)
    expect(d.clock.now().toISOString()).toBe('2024-01-01T00:00:00.000Z')
  })

  it('two instances keep separate clocks and journals', async () => {
    const a = createDoppel({ clock: { start: 0, frozen: true } })
    const b = createDoppel({ clock: { start: 0, frozen: true } })
    a.clock.advance('1h')
    expect(b.clock.nowMs()).toBe(0)
    await a.fetch('http://doppel.test/_doppel/health')
    expect(a.journal.entries()).toHaveLength(1)
    expect(b.journal.entries()).toHaveLength(0)
  })
})
