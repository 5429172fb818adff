/**
 * The one BER/DER reader: for the PKCS#7 and X.509 structures the ec2 login checks, and for the fields the
 * fake cloud copies out of its certificates. BER is accepted (indefinite lengths, constructed strings) and
 * every node can be re-encoded as DER, which is what the signature over signed attributes and the issuer
 * comparison need. Hand-written because it sits on the login hot path.
 */
import { errorKind } from './doppel-error.ts'
import { formatBasicIso, utcMillis } from './utc-date.ts'

/** A malformed encoding; the message follows the real service's parser where it is known. */
export class Asn1Error extends errorKind('Asn1Error', 'DOPPEL_INVALID_ASN1') {}

export const TAG = {
  INTEGER: 0x02,
  OCTET_STRING: 0x04,
  OID: 0x06,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  SEQUENCE: 0x30,
  SET: 0x31,
} as const

export interface Asn1Node {
  /** The identifier octets, e.g. `[0x30]` for SEQUENCE or `[0xa0]` for `[0] constructed`. */
  identifier: Uint8Array
  constructed: boolean
  /** Content octets of a primitive node; empty for constructed ones. */
  content: Uint8Array
  children: Asn1Node[]
  /** The element's own bytes when they are already DER (minimal definite lengths throughout). */
  der: Uint8Array | undefined
}

const MAX_DEPTH = 64
const EMPTY = new Uint8Array(0)

/**
 * A parsed element as offsets into the received bytes: its identifier, content and DER views are cut
 * only when asked for (most nodes are only ever asked for their tag). Each can be replaced, to build an
 * edited tree that `encodeDer` re-encodes.
 */
class BerElement implements Asn1Node {
  readonly constructed: boolean
  children: Asn1Node[]
  /** Whether the element's own bytes are DER (minimal definite lengths throughout). */
  readonly isDer: boolean
  readonly #bytes: Uint8Array
  readonly #start: number
  readonly #contentStart: number
  readonly #end: number
  readonly #identifierEnd: number
  readonly #tag: number
  #identifier: Uint8Array | undefined
  #content: Uint8Array | undefined
  #der: { value: Uint8Array | undefined } | undefined

  constructor(bytes: Uint8Array, start: number, identifierEnd: number, contentStart: number, end: number, constructed: boolean, children: Asn1Node[], isDer: boolean) {
    this.#bytes = bytes
    this.#start = start
    this.#identifierEnd = identifierEnd
    this.#contentStart = contentStart
    this.#end = end
    this.constructed = constructed
    this.children = children
    this.#tag = identifierEnd - start === 1 ? bytes[start]! : -1
    this.isDer = isDer
  }

  /** The single identifier octet, or -1 for a multi-octet identifier. */
  get tag(): number {
    if (this.#identifier === undefined) return this.#tag
    return this.#identifier.length === 1 ? this.#identifier[0]! : -1
  }

  get identifier(): Uint8Array {
    return (this.#identifier ??= this.#bytes.subarray(this.#start, this.#identifierEnd))
  }

  set identifier(value: Uint8Array) {
    this.#identifier = value
  }

  get content(): Uint8Array {
    return (this.#content ??= this.constructed ? EMPTY : this.#bytes.subarray(this.#contentStart, this.#end))
  }

  set content(value: Uint8Array) {
    this.#content = value
  }

  get der(): Uint8Array | undefined {
    if (this.#der) return this.#der.value
    return this.isDer ? this.#bytes.subarray(this.#start, this.#end) : undefined
  }

  set der(value: Uint8Array | undefined) {
    this.#der = { value }
  }

  /** Where the element ends in the received bytes. */
  get end(): number {
    return this.#end
  }
}

/** Parses exactly one BER element filling `bytes`; trailing data is an error, as in the real parser. */
export function parseBer(bytes: Uint8Array): Asn1Node {
  if (bytes.length === 0) throw new Asn1Error('pkcs7: input data is empty')
  const node = readElement(bytes, 0, bytes.length, 0)
  if (node.end !== bytes.length) throw new Asn1Error('asn1: syntax error: trailing data')
  return node
}

function readElement(bytes: Uint8Array, start: number, limit: number, depth: number): BerElement {
  if (depth > MAX_DEPTH) throw new Asn1Error('ber2der: nesting too deep')
  let offset = start
  if (offset >= limit) throw new Asn1Error('ber2der: input ended unexpectedly')
  const first = bytes[offset++]!
  if ((first & 0x1f) === 0x1f) {
    for (;;) {
      if (offset >= limit) throw new Asn1Error('ber2der: BER tag length is more than available data')
      if ((bytes[offset++]! & 0x80) === 0) break
    }
  }
  const identifierEnd = offset
  const constructed = (first & 0x20) !== 0
  if (offset >= limit) throw new Asn1Error('ber2der: input ended unexpectedly')
  const lengthByte = bytes[offset++]!
  if (lengthByte === 0x80) {
    if (!constructed) throw new Asn1Error('ber2der: Invalid BER format')
    const children: Asn1Node[] = []
    for (;;) {
      if (offset + 1 >= limit) throw new Asn1Error('ber2der: input ended unexpectedly')
      if (bytes[offset] === 0 && bytes[offset + 1] === 0) return new BerElement(bytes, start, identifierEnd, offset, offset + 2, constructed, children, false)
      const child = readElement(bytes, offset, limit, depth + 1)
      children.push(child)
      offset = child.end
    }
  }
  let length = lengthByte
  let minimal = true
  if (lengthByte & 0x80) {
    const count = lengthByte & 0x7f
    if (count > 4) throw new Asn1Error('ber2der: BER tag length too long')
    length = 0
    for (let i = 0; i < count; i++) {
      if (offset >= limit) throw new Asn1Error('ber2der: input ended unexpectedly')
      length = length * 256 + bytes[offset++]!
    }
    minimal = length >= 0x80 && bytes[offset - count] !== 0
  }
  const end = offset + length
  if (end > limit) throw new Asn1Error('ber2der: BER tag length is more than available data')
  if (!constructed) return new BerElement(bytes, start, identifierEnd, offset, end, constructed, [], minimal)
  const contentStart = offset
  const children: Asn1Node[] = []
  let childrenDer = true
  while (offset < end) {
    const child = readElement(bytes, offset, end, depth + 1)
    children.push(child)
    childrenDer &&= child.isDer
    offset = child.end
  }
  return new BerElement(bytes, start, identifierEnd, contentStart, end, constructed, children, minimal && childrenDer)
}

/**
 * The received bytes a node spans, as a Buffer over them, not a copy: a login reads a few of these, and
 * nothing here writes into its input.
 */
export function viewOf(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

/** The DER encoding of a node: definite lengths throughout, identifiers and contents kept. */
export function encodeDer(node: Asn1Node): Buffer {
  if (node.der) return viewOf(node.der)
  const body = node.constructed ? Buffer.concat(node.children.map((child) => encodeDer(child))) : viewOf(node.content)
  return encodeTlv(node.identifier, body)
}

/** One DER element from its identifier and content octets. */
export function encodeTlv(identifier: Uint8Array, body: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(identifier), encodeLength(body.length), body])
}

function encodeLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length])
  const octets: number[] = []
  for (let n = length; n > 0; n = Math.floor(n / 256)) octets.unshift(n & 0xff)
  return Buffer.from([0x80 | octets.length, ...octets])
}

/** The identifier as a number when it is a single octet (all the structures read here use those). */
export function tagOf(node: Asn1Node): number {
  if (node instanceof BerElement) return node.tag
  return node.identifier.length === 1 ? node.identifier[0]! : -1
}

/** The node itself, checking that it exists and has the expected single-octet tag. */
export function requireTag(node: Asn1Node | undefined, tag: number, what: string): Asn1Node {
  if (!node || tagOf(node) !== tag) throw new Asn1Error(`asn1: structure error: tags don't match (${what})`)
  return node
}

/** The bytes of a string-like node, joining the segments of a constructed (BER) string. */
export function stringBytes(node: Asn1Node): Buffer {
  if (!node.constructed) return viewOf(node.content)
  return Buffer.concat(node.children.map(stringBytes))
}

/** Dotted text of an OBJECT IDENTIFIER node. */
export function readOid(node: Asn1Node | undefined, what: string): string {
  return dottedOid(requireTag(node, TAG.OID, what).content)
}

/**
 * A `readOid` that answers an identifier in `known` with that very string: a caller that looks it up in its
 * tables then hashes and compares a string made once, not text built for each login (seven per login).
 */
export function oidReader(known: readonly string[]): (node: Asn1Node | undefined, what: string) => string {
  const byLength = new Map<number, { content: Uint8Array; dotted: string }[]>()
  for (const dotted of new Set(known)) {
    const content = encodeOid(dotted)
    byLength.set(content.length, [...(byLength.get(content.length) ?? []), { content, dotted }])
  }
  return (node, what) => {
    const bytes = requireTag(node, TAG.OID, what).content
    const entry = byLength.get(bytes.length)?.find(({ content }) => sameBytes(content, bytes))
    return entry ? entry.dotted : dottedOid(bytes)
  }
}

/** The content octets of a dotted OBJECT IDENTIFIER: the first two arcs as one, each arc in base 128. */
function encodeOid(dotted: string): Uint8Array {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number)
  const octets: number[] = []
  for (const arc of [first * 40 + second, ...rest]) {
    const digits = [arc & 0x7f]
    for (let n = Math.floor(arc / 128); n > 0; n = Math.floor(n / 128)) digits.unshift((n & 0x7f) | 0x80)
    octets.push(...digits)
  }
  return Uint8Array.from(octets)
}

/** Equal bytes, compared from the end: identifiers of one family share their first octets. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = a.length - 1; i >= 0; i--) if (a[i] !== b[i]) return false
  return true
}

function dottedOid(bytes: Uint8Array): string {
  if (bytes.length === 0) throw new Asn1Error('asn1: syntax error: zero length OBJECT IDENTIFIER')
  // Written straight into the text, with no array of arcs to join.
  let dotted = ''
  let value = 0
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!
    value = value * 128 + (byte & 0x7f)
    if ((byte & 0x80) === 0) {
      if (dotted === '') {
        const first = value < 80 ? Math.floor(value / 40) : 2
        dotted = `${first}.${value - first * 40}`
      } else {
        dotted += `.${value}`
      }
      value = 0
    } else if (i === bytes.length - 1) {
      throw new Asn1Error('asn1: syntax error: truncated base 128 integer')
    }
  }
  return dotted
}

/** Checks that the node is a non-empty INTEGER, without reading its value (a version field). */
export function requireInteger(node: Asn1Node | undefined, what: string): void {
  if (requireTag(node, TAG.INTEGER, what).content.length === 0) throw new Asn1Error('asn1: syntax error: empty integer')
}

/** An INTEGER's magnitude as lower-case hex without leading zeros (serial numbers are compared this way). */
export function readIntegerHex(node: Asn1Node | undefined, what: string): string {
  const bytes = requireTag(node, TAG.INTEGER, what).content
  if (bytes.length === 0) throw new Asn1Error('asn1: syntax error: empty integer')
  let first = 0
  while (first < bytes.length && bytes[first] === 0) first++
  if (first === bytes.length) return '0'
  return Buffer.from(bytes.buffer, bytes.byteOffset + first, bytes.length - first).toString('hex')
}

/**
 * A time's DER text, to the second: UTCTime `YYMMDDhhmmssZ` for the years 1950–2049, GeneralizedTime
 * `YYYYMMDDhhmmssZ` otherwise (RFC 5280 §4.1.2.5, which RFC 5652 follows for a signing time); `type` as
 * jsrsasign names the two.
 */
export function derTimeText(ms: number): { type: 'utc' | 'gen'; str: string } {
  const digits = formatBasicIso(ms).replace('T', '')
  const year = Number(digits.slice(0, 4))
  return year >= 1950 && year < 2050 ? { type: 'utc', str: digits.slice(2) } : { type: 'gen', str: digits }
}

/** A UTCTime or GeneralizedTime node as epoch milliseconds, with Go's accepted layouts. */
export function readTime(node: Asn1Node | undefined, what: string): number {
  const tag = node ? tagOf(node) : -1
  if (!node || (tag !== TAG.UTC_TIME && tag !== TAG.GENERALIZED_TIME)) {
    throw new Asn1Error(`asn1: structure error: tags don't match (${what})`)
  }
  const ms = tag === TAG.UTC_TIME ? utcTime(node.content) : generalizedTime(node.content)
  if (Number.isNaN(ms)) {
    throw new Asn1Error(`asn1: time did not serialize back to the original value and may be invalid: given "${viewOf(node.content).toString('latin1')}"`)
  }
  return ms
}

// Both layouts are read from the bytes digit by digit: each login reads a signing time, and a regular
// expression's match, the text it runs on and a Date to set cost 1.5 µs where this costs 0.2.

/** `YYMMDDhhmm[ss]` and a zone, as epoch milliseconds; NaN for any other text. */
function utcTime(bytes: Uint8Array): number {
  const withSeconds = isDigit(bytes[10])
  const yy = digits(bytes, 0, 2)
  return calendarMillis(yy + (yy < 50 ? 2000 : 1900), bytes, 2, withSeconds) + zoneOffset(bytes, withSeconds ? 12 : 10)
}

/** `YYYYMMDDhhmmss[.fraction]` and a zone, as epoch milliseconds; NaN for any other text. */
function generalizedTime(bytes: Uint8Array): number {
  let zone = 14
  let fraction = 0
  if (bytes[14] === 0x2e) {
    zone = 15
    while (isDigit(bytes[zone])) zone++
    if (zone === 15) return Number.NaN
    fraction = Number(`0.${viewOf(bytes.subarray(15, zone)).toString('latin1')}`)
  }
  return calendarMillis(digits(bytes, 0, 4), bytes, 4, true) + Math.floor(fraction * 1000) + zoneOffset(bytes, zone)
}

/** The month, day, hour, minute and (when present) second that follow the year at `at`, as a UTC time. */
function calendarMillis(year: number, bytes: Uint8Array, at: number, withSeconds: boolean): number {
  return utcMillis(year, digits(bytes, at, 2) - 1, digits(bytes, at + 2, 2), digits(bytes, at + 4, 2), digits(bytes, at + 6, 2), withSeconds ? digits(bytes, at + 8, 2) : 0)
}

/** What to add to a local time for UTC, from `Z` or `±hhmm` ending the bytes at `at`; NaN for anything else. */
function zoneOffset(bytes: Uint8Array, at: number): number {
  if (bytes[at] === 0x5a) return bytes.length === at + 1 ? 0 : Number.NaN
  if ((bytes[at] !== 0x2b && bytes[at] !== 0x2d) || bytes.length !== at + 5) return Number.NaN
  const minutes = digits(bytes, at + 1, 2) * 60 + digits(bytes, at + 3, 2)
  return (bytes[at] === 0x2d ? minutes : -minutes) * 60_000
}

/** The decimal number the `count` bytes at `at` spell; NaN unless all are ASCII digits. */
function digits(bytes: Uint8Array, at: number, count: number): number {
  let value = 0
  for (let i = at; i < at + count; i++) {
    if (!isDigit(bytes[i])) return Number.NaN
    value = value * 10 + bytes[i]! - 0x30
  }
  return value
}

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x30 && byte <= 0x39
}
