import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DurationError, formatGoDuration, formatShortDuration, parseDuration } from './duration.ts'

describe('parseDuration', () => {
  it.each([
    [60, 60],
    ['60', 60],
    ['72h', 259200],
    ['1h30m', 5400],
    ['10s', 10],
    ['500ms', 0],
    ['1500ms', 1],
    ['2d', 172800],
    ['', 0],
    ['0', 0],
    ['768h0m0s', 2764800],
  ])('%j → %d seconds', (input, seconds) => {
    expect(parseDuration(input)).toBe(seconds)
  })

  it.each([
    ['soon', 'time: invalid duration "soon"'],
    ['10', null],
    ['1x', 'time: unknown unit "x" in duration "1x"'],
    ['-5', "cannot provide negative value '-5'"],
    ['-1h', "cannot provide negative value '-3600'"],
    ['5.5.5h', 'time: missing unit in duration "5.5.5h"'],
    ['3000000h', 'time: invalid duration "3000000h"'],
    ['1h\u00e9', 'time: unknown unit "h\\xc3\\xa9" in duration "1h\\xc3\\xa9"'],
  ])('%j is refused with the service message', (input, message) => {
    if (message === null) return expect(parseDuration(input)).toBe(10)
    expect(() => parseDuration(input)).toThrow(new DurationError(message))
  })

  it('never throws anything but DurationError, and never returns a negative or non-integer', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null), fc.boolean()), (value) => {
        try {
          const seconds = parseDuration(value)
          expect(Number.isInteger(seconds) || Number.isNaN(seconds)).toBe(true)
          expect(seconds).toBeGreaterThanOrEqual(0)
        } catch (error) {
          expect(error).toBeInstanceOf(DurationError)
        }
      }),
    )
  })
})

describe('formatGoDuration', () => {
  it.each([
    [0, '0s', '0s'],
    [120, '2m0s', '2m'],
    [2764800, '768h0m0s', '768h'],
    [5400, '1h30m0s', '1h30m'],
    [3601, '1h0m1s', '1h0m1s'],
  ])('%d → %s / %s', (seconds, long, short) => {
    expect(formatGoDuration(seconds)).toBe(long)
    expect(formatShortDuration(seconds)).toBe(short)
  })

  it('round-trips through parseDuration', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000 }), (s) => {
      expect(parseDuration(formatGoDuration(s))).toBe(s)
    }))
  })
})
