import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatBasicIso, isoSeconds, utcMillis } from './utc-date.ts'

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

describe('formatBasicIso', () => {
  it('writes the SigV4 basic time, whole seconds, for any instant the clock or a skew window can give', () => {
    expect(formatBasicIso(Date.UTC(2026, 10, 25, 7, 4, 5, 999))).toBe('20261125T070405Z')
    expect(formatBasicIso(0)).toBe('19700101T000000Z')
    // The clock's last instant plus the 15-minute skew window: a year past 9999 keeps the general form.
    expect(formatBasicIso(Date.UTC(9999, 11, 31, 23, 59, 59, 999) + 15 * 60_000)).toBe('+0100000101T001459Z')
    expect(formatBasicIso(-1)).toBe('19691231T235959Z')
    expect(formatBasicIso(Date.parse('0005-01-02T03:04:05Z'))).toBe('00050102T030405Z')
  })

  it('writes every instant a Date holds as its ISO text without separators or milliseconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
        const iso = new Date(Math.floor(ms / 1000) * 1000).toISOString()
        expect(formatBasicIso(ms)).toBe(iso.replace(/[-:]/g, '').replace('.000Z', 'Z'))
      }),
      { numRuns: 2000 },
    )
  })

  it('throws for a time no Date holds, as toISOString does', () => {
    expect(() => formatBasicIso(Number.NaN)).toThrow(RangeError)
    expect(() => formatBasicIso(8.64e15 + 1000)).toThrow(RangeError)
  })
})
