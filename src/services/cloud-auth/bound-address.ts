/**
 * `token_bound_cidrs` items as the real service parses them (go-sockaddr): an IPv4 or IPv6 address or
 * CIDR block, an address with a port, or, as a quirk, a UNIX socket path. Returns the read form: a /32
 * or /128 without its mask, other blocks as written (`10.1.2.3/8` keeps its host bits).
 *
 * Where the real service lets an address with an impossible prefix (`10.0.0.0/33`, `::1/129`,
 * `10.0.0.0/x`) through as a "UNIX socket", doppel refuses it with the same message: it can never match
 * a caller, so storing it only hides a mistake.
 */
import { goQuote, goQuoteAscii } from '../../core/go/go-format.ts'
import { errorKind } from '../../core/doppel-error.ts'

/** An item that is no address; the message is the real service's. */
export class BoundAddressError extends errorKind('BoundAddressError', 'DOPPEL_INVALID_ADDRESS') {}

/** Parses one item into its read form, or throws BoundAddressError. */
export function parseBoundAddress(text: string): string {
  const parsed = parseIpv4Form(text) ?? parseIpv6Form(text)
  if (parsed !== undefined) return parsed
  if (text.length > 1 && (text[0] === '.' || text[0] === '/' || text.includes('/')) && !isAddressWithBadPrefix(text)) return text
  throw new BoundAddressError(
    `error parsing address ${goQuote(text)}: Unable to convert ${goQuoteAscii(text)} to an IPv4 or IPv6 address, or a UNIX Socket`,
  )
}

function parseIpv4Form(text: string): string | undefined {
  const cidr = splitCidr(text)
  if (cidr) {
    const ip = parseIp(cidr.address)
    if (!ip) return undefined
    const v4 = toIpv4(ip)
    if (!v4) return undefined
    if (cidr.bits > (cidr.address.includes(':') ? 128 : 32)) return undefined
    const bits = cidr.address.includes(':') ? (cidr.bits >= 96 ? cidr.bits - 96 : 0) : cidr.bits
    return bits === 32 ? v4 : `${v4}/${bits}`
  }
  const port = /^(\d+\.\d+\.\d+\.\d+):(\d+)$/.exec(text)
  if (port && parseIpv4(port[1]!) && Number(port[2]) <= 65535) {
    return Number(port[2]) === 0 ? port[1] : text
  }
  const ip = parseIp(text)
  return ip ? toIpv4(ip) : undefined
}

function parseIpv6Form(text: string): string | undefined {
  const cidr = splitCidr(text)
  if (cidr) {
    const ip = parseIp(cidr.address)
    if (!ip || cidr.bits > (ip.length === 4 ? 32 : 128)) return undefined
    const address = formatIp(ip)
    return cidr.bits === 128 ? address : `${address}/${cidr.bits}`
  }
  const port = /^\[([^\]]+)\]:(\d+)$/.exec(text)
  if (port) {
    const ip = parseIpv6(port[1]!)
    if (!ip || Number(port[2]) > 65535) return undefined
    return Number(port[2]) === 0 ? formatIp(ip) : `[${formatIp(ip)}]:${Number(port[2])}`
  }
  const ip = parseIp(text)
  return ip ? formatIp(ip) : undefined
}

/** An IP address followed by `/` and something that is no prefix length of its family. */
function isAddressWithBadPrefix(text: string): boolean {
  const at = text.indexOf('/')
  return at > 0 && parseIp(text.slice(0, at)) !== undefined
}

function splitCidr(text: string): { address: string; bits: number } | undefined {
  const at = text.indexOf('/')
  if (at === -1) return undefined
  const bits = text.slice(at + 1)
  if (!/^\d{1,3}$/.test(bits)) return undefined
  return { address: text.slice(0, at), bits: Number(bits) }
}

/** Go's `net.ParseIP`: 4 bytes for dotted IPv4, 16 for IPv6. */
function parseIp(text: string): number[] | undefined {
  return parseIpv4(text) ?? parseIpv6(text)
}

function parseIpv4(text: string): number[] | undefined {
  const parts = text.split('.')
  if (parts.length !== 4) return undefined
  const bytes: number[] = []
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return undefined
    bytes.push(Number(part))
  }
  return bytes
}

function parseIpv6(text: string): number[] | undefined {
  if (!text.includes(':')) return undefined
  let head = text
  let tail: number[] = []
  const lastColon = text.lastIndexOf(':')
  if (text.slice(lastColon + 1).includes('.')) {
    const v4 = parseIpv4(text.slice(lastColon + 1))
    if (!v4) return undefined
    tail = v4
    head = text.slice(0, lastColon + 1) + '0:0'
  }
  const halves = head.split('::')
  if (halves.length > 2) return undefined
  const groups = (part: string) => (part === '' ? [] : part.split(':'))
  const left = groups(halves[0]!)
  const right = halves.length === 2 ? groups(halves[1]!) : []
  const total = left.length + right.length
  if (halves.length === 1 ? total !== 8 : total > 7) return undefined
  const words = [...left, ...Array<string>(8 - total).fill('0'), ...right]
  const bytes: number[] = []
  for (const word of words) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(word)) return undefined
    const value = parseInt(word, 16)
    bytes.push(value >> 8, value & 0xff)
  }
  if (tail.length === 4) bytes.splice(12, 4, ...tail)
  return bytes
}

function toIpv4(ip: number[]): string | undefined {
  if (ip.length === 4) return ip.join('.')
  const mapped = ip.slice(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff
  return mapped ? ip.slice(12).join('.') : undefined
}

/** Go's `net.IP.String()`: dotted for IPv4 (and v4-mapped), else RFC 5952 with the first longest zero run as `::`. */
function formatIp(ip: number[]): string {
  const v4 = toIpv4(ip)
  if (v4) return v4
  const words: number[] = []
  for (let i = 0; i < 16; i += 2) words.push((ip[i]! << 8) | ip[i + 1]!)
  let bestStart = -1
  let bestLength = 1
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && words[j] === 0) j++
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i]
    i = j
  }
  const hex = (list: number[]) => list.map((w) => w.toString(16)).join(':')
  if (bestStart === -1) return hex(words)
  return `${hex(words.slice(0, bestStart))}::${hex(words.slice(bestStart + bestLength))}`
}
