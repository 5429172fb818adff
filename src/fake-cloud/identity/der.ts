/**
 * A small DER writer and reader: enough to assemble CMS SignedData and to copy fields out of a certificate
 * byte for byte.
 */

export const TAG = {
  INTEGER: 0x02,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  SEQUENCE: 0x30,
  SET: 0x31,
  CONTEXT_0: 0xa0,
} as const

/** One TLV with its contents. */
export function tlv(tag: number, ...contents: Uint8Array[]): Buffer {
  const body = Buffer.concat(contents)
  return Buffer.concat([Buffer.from([tag]), encodeLength(body.length), body])
}

function encodeLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length])
  const bytes: number[] = []
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff)
  return Buffer.from([0x80 | bytes.length, ...bytes])
}

/** An OBJECT IDENTIFIER from dotted text. */
export function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number)
  const bytes: number[] = [arcs[0]! * 40 + arcs[1]!]
  for (const arc of arcs.slice(2)) {
    const base128: number[] = [arc & 0x7f]
    for (let n = Math.floor(arc / 128); n > 0; n = Math.floor(n / 128)) base128.unshift((n & 0x7f) | 0x80)
    bytes.push(...base128)
  }
  return tlv(TAG.OID, Buffer.from(bytes))
}

/** A SET OF in DER order: members sorted by their encodings, compared as octet strings. */
export function derSetOf(members: Buffer[], tag: number = TAG.SET): Buffer {
  return tlv(tag, ...[...members].sort(Buffer.compare))
}

/** UTCTime for 1950–2049, GeneralizedTime otherwise (RFC 5652's rule for signingTime). */
export function derTime(ms: number): Buffer {
  const iso = new Date(Math.floor(ms / 1000) * 1000).toISOString()
  const year = Number(iso.slice(0, 4))
  const digits = iso.slice(0, 19).replace(/[-T:]/g, '') + 'Z'
  return year >= 1950 && year < 2050 ? tlv(TAG.UTC_TIME, Buffer.from(digits.slice(2))) : tlv(TAG.GENERALIZED_TIME, Buffer.from(digits))
}

/** A decoded TLV: where it starts, where its contents start, where it ends. */
export interface DerNode {
  tag: number
  start: number
  contentStart: number
  end: number
}

/** Reads the TLV at `offset` (definite lengths only: DER). */
export function readNode(der: Uint8Array, offset: number): DerNode {
  const tag = der[offset]!
  let length = der[offset + 1]!
  let contentStart = offset + 2
  if (length & 0x80) {
    const count = length & 0x7f
    length = 0
    for (let i = 0; i < count; i++) length = length * 256 + der[contentStart + i]!
    contentStart += count
  }
  const end = contentStart + length
  if (end > der.length) throw new RangeError('Failed to read DER: length runs past the end')
  return { tag, start: offset, contentStart, end }
}

/** The children of a constructed node. */
export function children(der: Uint8Array, node: DerNode): DerNode[] {
  const out: DerNode[] = []
  for (let offset = node.contentStart; offset < node.end; ) {
    const child = readNode(der, offset)
    out.push(child)
    offset = child.end
  }
  return out
}
