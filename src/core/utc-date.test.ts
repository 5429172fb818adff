import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isoSeconds, utcMillis } from './utc-date.ts'

describe('isoSeconds', () => {
  it('writes a UTC time to the second with Z, dropping the fraction toward the earlier second', () => {
    expect(isoSeconds(0)).toBe('1970-01-01T00:00:00Z')
    expect(isoSeconds(1999)).toBe('1970-01-01T00:00:01Z')
    expect(isoSeconds(-1)).toBe('1969-12-31T23:59:59Z')
    expect(isoSeconds(Date.UTC(2026, 10, 30, 10, 52, 7, 999))).toBe('2026-11-30T10:52:07Z')
  })

  it('reads back as the start of the second the time falls in, for every time of the years 0 to 9999', () => {
    const first = utcMillis(0, 0, 1)
    const last = utcMillis(9999, 11, 31, 23, 59, 59) + 999
    fc.assert(
      fc.property(fc.integer({ min: first, max: last }), (ms) => {
        const text = isoSeconds(ms)
        expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
        const start = Date.parse(text)
        expect(start % 1000 === 0).toBe(true)
        expect(start <= ms && ms < start + 1000).toBe(true)
      }),
    )
  })
})
