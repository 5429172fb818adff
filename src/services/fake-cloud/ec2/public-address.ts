import type { InstanceRecord } from '../cloud-state.ts'
import { derivedBytes } from '../ids.ts'
import { regionDnsSuffix } from '../regions.ts'

/** First octets of ranges AWS assigns public IPv4 addresses from. */
const PUBLIC_FIRST_OCTETS = [3, 18, 34, 35, 44, 52, 54]

/** A public IPv4 address for a new instance, following from its already drawn MAC address and interface id. */
export function assignPublicIp(record: Pick<InstanceRecord, 'mac' | 'network_interface_id'>): string {
  const bytes = derivedBytes('public-ip', record.mac, record.network_interface_id)
  return [PUBLIC_FIRST_OCTETS[bytes[0]! % PUBLIC_FIRST_OCTETS.length], bytes[1], bytes[2], 1 + (bytes[3]! % 254)].join('.')
}

/** EC2's public DNS name: `ec2-1-2-3-4.compute-1.amazonaws.com` in us-east-1, else `….<region>.compute.<suffix>`. */
export function publicDnsName(ip: string, region: string): string {
  const host = `ec2-${ip.replace(/\./g, '-')}`
  return region === 'us-east-1' ? `${host}.compute-1.amazonaws.com` : `${host}.${region}.compute.${regionDnsSuffix(region) ?? 'amazonaws.com'}`
}

/** The public address EC2 shows: none while the instance is stopped (AWS releases it; doppel gives it back at the start). */
export function shownPublicIp(instance: Pick<InstanceRecord, 'state' | 'public_ip'>): string | null {
  return instance.state === 'stopped' || instance.state === 'terminated' ? null : instance.public_ip
}
