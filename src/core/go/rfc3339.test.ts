import fc from 'fast-check'
import { expect, it } from 'vitest'
import { parseRfc3339, TimeParseError } from './rfc3339.ts'

/** Days from 1970-01-01 to a proleptic Gregorian date, by arithmetic alone (no Date): the oracle. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146097 + dayOfEra - 719468
}

const daysIn = (year: number, month: number) => [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!
const pad = (n: number, width: number) => String(n).padStart(width, '0')

// Times of the layout's shape, their fields sometimes out of range: each parses to the instant the oracle
// computes, or is refused with Go's message; never anything else.
it('reads every time of the RFC 3339 shape as the calendar says, and refuses the ones out of range (property)', () => {
  const time = fc.record({
    year: fc.integer({ min: 0, max: 9999 }),
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.integer({ min: 0, max: 32 }),
    hour: fc.integer({ min: 0, max: 24 }),
    minute: fc.integer({ min: 0, max: 60 }),
    second: fc.integer({ min: 0, max: 60 }),
    fraction: fc.option(fc.tuple(fc.constantFrom('.', ','), fc.stringMatching(/^\d{1,12}$/))),
    zone: fc.option(fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))),
  })
  fc.assert(
    fc.property(time, (t) => {
      const fraction = t.fraction === null ? '' : `${t.fraction[0]}${t.fraction[1]}`
      const zone = t.zone === null ? 'Z' : `${t.zone[0]}${pad(t.zone[1], 2)}:${pad(t.zone[2], 2)}`
      const text = `${pad(t.year, 4)}-${pad(t.month, 2)}-${pad(t.day, 2)}T${pad(t.hour, 2)}:${pad(t.minute, 2)}:${pad(t.second, 2)}${fraction}${zone}`
      const valid = t.month >= 1 && t.month <= 12 && t.day >= 1 && t.day <= daysIn(t.year, t.month) && t.hour <= 23 && t.minute <= 59 && t.second <= 59
      if (!valid) {
        expect(() => parseRfc3339(text)).toThrow(TimeParseError)
        expect(() => parseRfc3339(text)).toThrow(/ out of range$/)
        return
      }
      const offset = t.zone === null ? 0 : (t.zone[0] === '-' ? -1 : 1) * (t.zone[1] * 60 + t.zone[2])
      const seconds = daysFromCivil(t.year, t.month, t.day) * 86400 + t.hour * 3600 + t.minute * 60 + t.second - offset * 60
      const nanos = t.fraction === null ? 0n : BigInt(t.fraction[1].slice(0, 9).padEnd(9, '0'))
      expect(parseRfc3339(text), text).toBe(BigInt(seconds) * 1_000_000_000n + nanos)
    }),
    { numRuns: 2000 },
  )
})

it('reads the leap days of the years 0 to 99 as the calendar says (a failing seed of the property above)', () => {
  expect(parseRfc3339('0000-02-29T00:00:00Z')).toBe(BigInt(daysFromCivil(0, 2, 29) * 86400) * 1_000_000_000n)
  expect(parseRfc3339('0004-02-29T12:00:00Z')).toBe(BigInt(daysFromCivil(4, 2, 29) * 86400 + 43200) * 1_000_000_000n)
  expect(() => parseRfc3339('0100-02-29T00:00:00Z')).toThrow(/day out of range$/)
})

it("refuses what is not of the layout's shape with Go's message", () => {
  for (const [text, message] of [
    ['2026-01-01t00:00:00Z', 'parsing time "2026-01-01t00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "t00:00:00Z" as "T"'],
    ['2026-01-01T00:00:00', 'parsing time "2026-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"'],
    ['2026-01-01T00:00:00Zx', 'parsing time "2026-01-01T00:00:00Zx": extra text: "x"'],
    ['2026-02-29T00:00:00Z', 'parsing time "2026-02-29T00:00:00Z": day out of range'],
    ['2026-1-01T00:00:00Z', 'parsing time "2026-1-01T00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "1-01T00:00:00Z" as "01"'],
  ]) {
    expect(() => parseRfc3339(text), text).toThrow(message)
  }
})
