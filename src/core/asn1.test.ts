import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Asn1Error, derTimeText, encodeDer, encodeTlv, oidReader, parseBer, readOid, readTime, TAG } from './asn1.ts'
import { utcMillis } from './utc-date.ts'

describe('BER/DER reader', () => {
  it('reads object identifiers as X.690 encodes them', () => {
    for (const [hex, dotted] of [
      ['06092a864886f70d010702', '1.2.840.113549.1.7.2'],
      ['0609608648016503040201', '2.16.840.1.101.3.4.2.1'],
      ['06052b0e03021a', '1.3.14.3.2.26'],
      ['06072a8648ce380403', '1.2.840.10040.4.3'],
    ]) {
      expect(readOid(parseBer(Buffer.from(hex!, 'hex')), 'oid')).toBe(dotted)
    }
  })

  it('reads back short and long lengths as written, and keeps DER bytes as they are', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70_000 }), (content) => {
        const encoded = encodeTlv(Uint8Array.of(TAG.OCTET_STRING), content)
        const node = parseBer(encoded)
        expect(Buffer.from(node.content).equals(Buffer.from(content))).toBe(true)
        expect(encodeDer(node).equals(encoded)).toBe(true)
      }),
      { numRuns: 50 },
    )
  })

  it('re-encodes an indefinite length as DER', () => {
    expect(encodeDer(parseBer(Buffer.from('3080020105040161 0000'.replace(/ /g, ''), 'hex'))).toString('hex')).toBe('3006020105040161')
  })

  it('refuses a length that runs past the end, and trailing data', () => {
    expect(() => parseBer(Buffer.from('0405aabb', 'hex'))).toThrow(Asn1Error)
    expect(() => parseBer(Buffer.from('0401aabb', 'hex'))).toThrow('asn1: syntax error: trailing data')
  })

  it('reads a GeneralizedTime of the years 0 to 99 as written (Date.UTC would read 1900 to 1999)', () => {
    const time = (text: string) => generalizedTime(Buffer.from(text))
    expect(new Date(time('00500101000000Z')).toISOString()).toBe('0050-01-01T00:00:00.000Z')
    expect(new Date(time('00000229120000Z')).toISOString()).toBe('0000-02-29T12:00:00.000Z')
    expect(new Date(time('20240229120000Z')).toISOString()).toBe('2024-02-29T12:00:00.000Z')
  })

  it('reads both UTCTime layouts, seconds or none, in UTC or at an offset, with the 1950-2049 window', () => {
    const iso = (text: string) => new Date(utcTime(Buffer.from(text))).toISOString()
    expect(iso('240305094127Z')).toBe('2024-03-05T09:41:27.000Z')
    expect(iso('2403050941Z')).toBe('2024-03-05T09:41:00.000Z')
    expect(iso('240305094127+0130')).toBe('2024-03-05T08:11:27.000Z')
    expect(iso('2403050941-2359')).toBe('2024-03-06T09:40:00.000Z')
    expect(iso('491231235959Z')).toBe('2049-12-31T23:59:59.000Z')
    expect(iso('500101000000Z')).toBe('1950-01-01T00:00:00.000Z')
  })

  it('reads a GeneralizedTime with a fraction of any length, cut to the millisecond', () => {
    const iso = (text: string) => new Date(generalizedTime(Buffer.from(text))).toISOString()
    expect(iso('20240305094127.5Z')).toBe('2024-03-05T09:41:27.500Z')
    expect(iso('20240305094127.123987654321-0100')).toBe('2024-03-05T10:41:27.123Z')
    expect(iso('99991231235959Z')).toBe('9999-12-31T23:59:59.000Z')
  })

  it('gives back every instant written in either layout at any offset', () => {
    const pad = (n: number, width = 2) => String(n).padStart(width, '0')
    const instant = (min: string, max: string) => fc.integer({ min: Date.parse(min), max: Date.parse(max) })
    const offset = fc.integer({ min: -1439, max: 1439 })
    const written = (ms: number, minutes: number, layout: 'utc' | 'generalized') => {
      const local = new Date(ms + minutes * 60_000)
      const zone = minutes === 0 ? 'Z' : `${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60))}${pad(Math.abs(minutes) % 60)}`
      const year = layout === 'utc' ? pad(local.getUTCFullYear() % 100) : pad(local.getUTCFullYear(), 4)
      const fields = [local.getUTCMonth() + 1, local.getUTCDate(), local.getUTCHours(), local.getUTCMinutes(), local.getUTCSeconds()].map((n) => pad(n)).join('')
      const fraction = layout === 'generalized' ? `.${pad(local.getUTCMilliseconds(), 3)}` : ''
      return Buffer.from(`${year}${fields}${fraction}${zone}`)
    }
    fc.assert(
      fc.property(instant('0001-01-02T00:00:00Z', '9999-12-30T23:59:59.999Z'), offset, (ms, minutes) => {
        expect(generalizedTime(written(ms, minutes, 'generalized'))).toBe(ms)
      }),
    )
    fc.assert(
      fc.property(instant('1950-01-02T00:00:00Z', '2049-12-30T23:59:59Z'), offset, (ms, minutes) => {
        const whole = ms - (ms % 1000)
        expect(utcTime(written(whole, minutes, 'utc'))).toBe(whole)
      }),
    )
  })

  it('refuses, with the text as given, anything but the two layouts', () => {
    // Go's accepted layouts, as patterns: the reader must take exactly these.
    const layouts = { utc: /^\d{10}(\d{2})?(Z|[+-]\d{4})$/, generalized: /^\d{14}(\.\d+)?(Z|[+-]\d{4})$/ }
    const near = fc.array(fc.constantFrom(...'0123456789Z+-.x '), { maxLength: 24 }).map((chars) => chars.join(''))
    // A text of either layout with one character added, dropped or changed.
    const valid = fc.constantFrom('240305094127Z', '2403050941+0130', '20240305094127Z', '20240305094127.25-0100', '2403050941-0000')
    const edited = fc.tuple(valid, fc.nat(), fc.constantFrom(...'09Z+-.x'), fc.constantFrom('add', 'drop', 'change')).map(([text, at, char, edit]) => {
      const i = at % (text.length + 1)
      return text.slice(0, i) + (edit === 'drop' ? '' : char) + text.slice(edit === 'add' ? i : i + 1)
    })
    const refusal = (text: string) => `asn1: time did not serialize back to the original value and may be invalid: given "${text}"`
    for (const [layout, read] of [['utc', utcTime], ['generalized', generalizedTime]] as const) {
      fc.assert(
        fc.property(fc.oneof(near, edited, fc.string({ maxLength: 20 })), (text) => {
          const bytes = Buffer.from(text, 'latin1')
          if (layouts[layout].test(bytes.toString('latin1'))) expect(read(bytes)).toBeTypeOf('number')
          else expect(() => read(bytes)).toThrow(refusal(bytes.toString('latin1')))
        }),
        { numRuns: 3000 },
      )
    }
    expect(() => utcTime(Buffer.from('24030509412Z'))).toThrow(refusal('24030509412Z'))
    expect(() => generalizedTime(Buffer.from('20240305094127.Z'))).toThrow(refusal('20240305094127.Z'))
  })

  it('reads an identifier a reader knows as its text, and any other as readOid does', () => {
    const known = ['1.2.840.113549.1.7.2', '2.16.840.1.101.3.4.2.1', '1.3.14.3.2.26', '2.999.128', '0.0']
    const read = oidReader(known)
    for (const dotted of known) expect(read(parseBer(encodeTlv(Uint8Array.of(TAG.OID), oidContent(dotted))), 'oid')).toBe(dotted)
    const arcs = fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 39 }), fc.array(fc.integer({ min: 0, max: 2 ** 32 }), { maxLength: 8 }))
    fc.assert(
      fc.property(fc.oneof(arcs.map(([first, second, rest]) => oidContent([first, second, ...rest].join('.'))), fc.uint8Array({ maxLength: 12 })), (content) => {
        const node = parseBer(encodeTlv(Uint8Array.of(TAG.OID), content))
        const outcome = (reader: typeof readOid) => {
          try {
            return reader(node, 'oid')
          } catch (error) {
            return (error as Error).message
          }
        }
        expect(outcome(read)).toBe(outcome(readOid))
      }),
    )
  })
})

describe('derTimeText', () => {
  it('writes UTCTime for 1950 to 2049 and GeneralizedTime otherwise, to the second', () => {
    expect(derTimeText(Date.UTC(2026, 10, 30, 10, 52, 7, 999))).toEqual({ type: 'utc', str: '261130105207Z' })
    expect(derTimeText(Date.UTC(1950, 0, 1))).toEqual({ type: 'utc', str: '500101000000Z' })
    expect(derTimeText(Date.UTC(1949, 11, 31, 23, 59, 59))).toEqual({ type: 'gen', str: '19491231235959Z' })
    expect(derTimeText(Date.UTC(2050, 0, 1))).toEqual({ type: 'gen', str: '20500101000000Z' })
  })

  it('reads back, as Go reads it, as the start of its second, for every time of the years 0 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: utcMillis(0, 0, 1), max: utcMillis(9999, 11, 31, 23, 59, 59) + 999 }), (ms) => {
        const { type, str } = derTimeText(ms)
        const read = (type === 'utc' ? utcTime : generalizedTime)(Buffer.from(str, 'latin1'))
        expect(read).toBe(Math.floor(ms / 1000) * 1000)
        const year = new Date(ms).getUTCFullYear()
        expect(type).toBe(year >= 1950 && year < 2050 ? 'utc' : 'gen')
      }),
    )
  })
})

const utcTime = (bytes: Uint8Array) => readTime(parseBer(encodeTlv(Uint8Array.of(TAG.UTC_TIME), bytes)), 'time')
const generalizedTime = (bytes: Uint8Array) => readTime(parseBer(encodeTlv(Uint8Array.of(TAG.GENERALIZED_TIME), bytes)), 'time')

/** X.690's encoding of a dotted identifier, written out here so the reader is not checked against itself. */
function oidContent(dotted: string): Uint8Array {
  const [first, second, ...rest] = dotted.split('.').map(Number) as [number, number, ...number[]]
  return Uint8Array.from([first * 40 + second, ...rest].flatMap((arc) => {
    const septets = [arc % 128]
    for (let n = Math.floor(arc / 128); n > 0; n = Math.floor(n / 128)) septets.unshift((n % 128) + 128)
    return septets
  }))
}
