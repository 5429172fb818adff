import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { children, derSetOf, derTime, oid, readNode, tlv, TAG } from './der.ts'

describe('DER writer', () => {
  it('encodes object identifiers as X.690 does', () => {
    expect(oid('1.2.840.113549.1.7.2').toString('hex')).toBe('06092a864886f70d010702')
    expect(oid('2.16.840.1.101.3.4.2.1').toString('hex')).toBe('0609608648016503040201')
    expect(oid('1.3.14.3.2.26').toString('hex')).toBe('06052b0e03021a')
    expect(oid('1.2.840.10040.4.3').toString('hex')).toBe('06072a8648ce380403')
  })

  it('writes short and long lengths that the reader reads back', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70_000 }), (content) => {
        const encoded = tlv(TAG.OCTET_STRING, content)
        const node = readNode(encoded, 0)
        expect(node.end).toBe(encoded.length)
        expect(Buffer.from(encoded.subarray(node.contentStart)).equals(Buffer.from(content))).toBe(true)
      }),
      { numRuns: 50 },
    )
  })

  it('sorts SET OF members by their encodings', () => {
    const members = [tlv(TAG.OCTET_STRING, Buffer.from('bb')), tlv(TAG.INTEGER, Buffer.from([5])), tlv(TAG.OCTET_STRING, Buffer.from('a'))]
    const set = derSetOf(members)
    expect(children(set, readNode(set, 0)).map((n) => set.subarray(n.start, n.end).toString('hex'))).toEqual(['020105', '040161', '04026262'])
  })

  it('writes signingTime as UTCTime until 2049 and GeneralizedTime from 2050', () => {
    expect(derTime(Date.parse('2024-03-05T09:41:27.900Z')).toString('latin1')).toBe('\x17\x0d240305094127Z')
    expect(derTime(Date.parse('2050-01-01T00:00:00Z')).toString('latin1')).toBe('\x18\x0f20500101000000Z')
  })
})
