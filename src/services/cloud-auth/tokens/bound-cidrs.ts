import { BlockList, isIP } from 'node:net'

/**
 * Whether a caller's address is inside one of the bound addresses or CIDR blocks (`token_bound_cidrs`).
 * An empty list allows everyone; entries that are not IP addresses or blocks (the UNIX socket quirk of
 * the role parser) never match.
 */
export function addressIsAllowed(remoteAddress: string, boundCidrs: readonly string[]): boolean {
  if (boundCidrs.length === 0) return true
  const address = normaliseAddress(remoteAddress)
  const family = isIP(address)
  if (family === 0) return false
  const type = family === 4 ? 'ipv4' : 'ipv6'
  const list = new BlockList()
  for (const entry of boundCidrs) {
    const [network, prefix] = entry.split('/')
    const entryFamily = isIP(network ?? '')
    if (entryFamily === 0) continue
    const entryType = entryFamily === 4 ? 'ipv4' : 'ipv6'
    try {
      if (prefix === undefined) list.addAddress(network!, entryType)
      else list.addSubnet(network!, Number(prefix), entryType)
    } catch {
      // @note A malformed mask cannot have been stored by the role parser; it simply matches nothing.
    }
  }
  return list.check(address, type)
}

/** `::ffff:10.0.0.1` → `10.0.0.1`; `fe80::1%eth0` → `fe80::1`; brackets and ports dropped. */
function normaliseAddress(address: string): string {
  let value = address.trim()
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value)
  if (bracketed) value = bracketed[1]!
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(value)) value = value.split(':')[0]!
  value = value.split('%')[0]!
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(value)
  return mapped ? mapped[1]! : value
}
