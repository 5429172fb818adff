import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Asn1Error, encodeDer, encodeTlv, parseBer, readOid, readTime, TAG } from './asn1.ts'

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
    const time = (text: string) => readTime(parseBer(encodeTlv(Uint8Array.of(TAG.GENERALIZED_TIME), Buffer.from(text))), 'time')
    expect(new Date(time('00500101000000Z')).toISOString()).toBe('0050-01-01T00:00:00.000Z')
    expect(new Date(time('00000229120000Z')).toISOString()).toBe('0000-02-29T12:00:00.000Z')
    expect(new Date(time('20240229120000Z')).toISOString()).toBe('2024-02-29T12:00:00.000Z')
  })
})
