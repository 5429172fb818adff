/**
 * Go's `time.Parse(time.RFC3339, value)` (the identity document's `pendingTime`, the clock's times): an instant in
 * nanoseconds since the epoch, or Go's error text.
 */

import { goQuote } from './go-format.ts'
import { errorKind } from '../doppel-error.ts'
import { utcDate } from '../utc-date.ts'

const LAYOUT = '2006-01-02T15:04:05Z07:00'

/** Layout elements in order: a literal, or a numeric field with its width and range. */
const ELEMENTS: ({ literal: string } | { field: string; width: number; digits: RegExp; min: number; max: number; range: string })[] = [
  { field: '2006', width: 4, digits: /^\d{4}$/, min: 0, max: 9999, range: 'year' },
  { literal: '-' },
  { field: '01', width: 2, digits: /^\d{2}$/, min: 1, max: 12, range: 'month' },
  { literal: '-' },
  { field: '02', width: 2, digits: /^\d{2}$/, min: 1, max: 31, range: 'day' },
  { literal: 'T' },
  { field: '15', width: 2, digits: /^\d{2}$/, min: 0, max: 23, range: 'hour' },
  { literal: ':' },
  { field: '04', width: 2, digits: /^\d{2}$/, min: 0, max: 59, range: 'minute' },
  { literal: ':' },
  { field: '05', width: 2, digits: /^\d{2}$/, min: 0, max: 59, range: 'second' },
]

export class TimeParseError extends errorKind('TimeParseError', 'DOPPEL_INVALID_TIME') {}

/** The layout's whole shape at once: a time of it in range is read from the match, anything else by the element walk below. */
const SHAPE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/

/** Parses an RFC 3339 time; throws TimeParseError with Go's message. */
export function parseRfc3339(value: string): bigint {
  const match = SHAPE.exec(value)
  if (match !== null) {
    const [, year, month, day, hour, minute, second, fraction, sign, zoneHours, zoneMinutes] = match
    const numbers = [Number(year), Number(month), Number(day), Number(hour), Number(minute), Number(second)] as const
    if (numbers[1] >= 1 && numbers[1] <= 12 && numbers[2] >= 1 && numbers[3] <= 23 && numbers[4] <= 59 && numbers[5] <= 59) {
      const offsetMinutes = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(zoneHours) * 60 + Number(zoneMinutes))
      const nanos = toNanos(numbers, fraction === undefined ? 0n : BigInt(fraction.slice(0, 9).padEnd(9, '0')), offsetMinutes)
      if (nanos !== undefined) return nanos
    }
  }
  return parseByElements(value)
}

/** The instant of a time whose fields are each in range, or undefined when its day is past its month's end. */
function toNanos([year, month, day, hour, minute, second]: readonly number[], fractionNanos: bigint, offsetMinutes: number): bigint | undefined {
  const date = utcDate(year!, month! - 1, day!, hour!, minute!, second!)
  if (date.getUTCDate() !== day) return undefined
  const seconds = BigInt(Math.floor(date.getTime() / 1000)) - BigInt(offsetMinutes * 60)
  return seconds * 1_000_000_000n + fractionNanos
}

/** Go's walk over the layout, element by element: what it reads, and where and why it stops. */
function parseByElements(value: string): bigint {
  const fail = (reason: string) => new TimeParseError(`parsing time ${goQuote(value)} as ${goQuote(LAYOUT)}: ${reason}`)
  const cannot = (rest: string, element: string) => fail(`cannot parse ${goQuote(rest)} as ${goQuote(element)}`)
  let rest = value
  const numbers: number[] = []
  for (const element of ELEMENTS) {
    if ('literal' in element) {
      if (!rest.startsWith(element.literal)) throw cannot(rest, element.literal)
      rest = rest.slice(element.literal.length)
      continue
    }
    const digits = rest.slice(0, element.width)
    if (!element.digits.test(digits)) throw cannot(rest, element.field)
    const number = Number(digits)
    if (number < element.min || number > element.max) {
      throw new TimeParseError(`parsing time ${goQuote(value)}: ${element.range} out of range`)
    }
    numbers.push(number)
    rest = rest.slice(element.width)
  }
  let nanos = 0n
  const fraction = /^[.,](\d+)/.exec(rest)
  if (fraction) {
    nanos = BigInt(fraction[1]!.slice(0, 9).padEnd(9, '0'))
    rest = rest.slice(fraction[0].length)
  }
  let offsetMinutes = 0
  if (rest.startsWith('Z')) {
    rest = rest.slice(1)
  } else {
    const zone = /^([+-])(\d{2}):(\d{2})/.exec(rest)
    if (!zone) throw cannot(rest, 'Z07:00')
    offsetMinutes = (zone[1] === '-' ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3]))
    rest = rest.slice(zone[0].length)
  }
  if (rest !== '') throw new TimeParseError(`parsing time ${goQuote(value)}: extra text: ${goQuote(rest)}`)
  const instant = toNanos(numbers, nanos, offsetMinutes)
  if (instant === undefined) throw new TimeParseError(`parsing time ${goQuote(value)}: day out of range`)
  return instant
}
