import { compileWildcard, PATTERN_LIMIT } from '../../../core/path-pattern.ts'
import { cloudErrors } from '../cloud-errors.ts'
import { placeKey, type CloudState, type InstanceRecord } from '../cloud-state.ts'
import { authorize } from '../iam/authorize.ts'
import type { Caller } from '../principals.ts'
import { INSTANCE_STATE_CODES } from './instance-state-codes.ts'
import { shownPublicIp } from './public-address.ts'
import { ownEntry } from '../../../core/own-field.ts'

/** EC2 DescribeInstances (docs/reference/fake-cloud.md §6), shared by the HTTP face and the direct face. */

export interface DescribeInstancesInput {
  instanceIds: string[]
  filters: { name: string; values: string[] }[]
  maxResults?: string
  nextToken?: string
  dryRun?: boolean
}

export interface DescribeInstancesOutput {
  instances: InstanceRecord[]
  nextToken?: string
}

const INSTANCE_ID = /^i-(?:[0-9a-f]{8}|[0-9a-f]{17})$/

/** The value(s) a filter name reads from an instance. */
const FILTERS: Record<string, (instance: InstanceRecord) => (string | null)[]> = {
  'instance-id': (i) => [i.instance_id],
  'instance-state-name': (i) => [i.state],
  'instance-state-code': (i) => [String(INSTANCE_STATE_CODES[i.state])],
  'image-id': (i) => [i.ami_id],
  'vpc-id': (i) => [i.vpc_id],
  'subnet-id': (i) => [i.subnet_id],
  'owner-id': (i) => [i.account_id],
  'reservation-id': (i) => [i.reservation_id],
  'availability-zone': (i) => [i.availability_zone],
  'instance-type': (i) => [i.instance_type],
  'private-ip-address': (i) => [i.private_ip],
  'ip-address': (i) => [shownPublicIp(i)],
  'dns-name': (i) => [shownPublicIp(i) === null ? null : i.public_dns_name],
  'key-name': (i) => [i.key_name],
  'iam-instance-profile.arn': (i) => [i.instance_profile_arn],
  'tag-key': (i) => Object.keys(i.tags),
  'tag-value': (i) => Object.values(i.tags),
}

/**
 * The caller's instances in `region`: by id (each must exist there, in the caller's account: AWS shows no
 * other account's instances) and/or by filters. Ids and `MaxResults` do not mix.
 */
export function describeInstances(state: CloudState, caller: Caller, region: string, input: DescribeInstancesInput): DescribeInstancesOutput {
  for (const id of input.instanceIds) if (!INSTANCE_ID.test(id)) throw cloudErrors.instanceIdMalformed(id)
  const matchers = input.filters.map(compileFilter)
  const maxResults = pageSize(input)
  authorize(caller, 'ec2:DescribeInstances', '*', 'ec2')
  if (input.dryRun) throw cloudErrors.dryRun()

  const visible = (instance: InstanceRecord | undefined): instance is InstanceRecord =>
    instance !== undefined && instance.account_id === caller.account && instance.region === region
  let candidates: InstanceRecord[]
  if (input.instanceIds.length > 0) {
    const ids = [...new Set(input.instanceIds)]
    const missing = ids.filter((id) => !visible(state.instances.get(id)))
    if (missing.length > 0) throw cloudErrors.instanceNotFound(missing)
    candidates = ids.map((id) => state.instances.get(id)!)
  } else {
    const byId = input.filters.find((f) => f.name === 'instance-id')
    candidates = byId
      ? byId.values.map((id) => state.instances.get(id)).filter(visible)
      : state.instances.findBy('place', placeKey(caller.account, region))
  }
  const matching = candidates.filter((instance) => matchers.every((match) => match(instance)))
  if (maxResults === undefined) return { instances: matching }
  const offset = input.nextToken === undefined ? 0 : decodeToken(input.nextToken)
  const page = matching.slice(offset, offset + maxResults)
  const next = offset + maxResults < matching.length ? encodeToken(offset + maxResults) : undefined
  return { instances: page, ...(next !== undefined && { nextToken: next }) }
}

function compileFilter(filter: { name: string; values: string[] }): (instance: InstanceRecord) => boolean {
  const read = filter.name.startsWith('tag:')
    ? (i: InstanceRecord) => [i.tags[filter.name.slice(4)] ?? null]
    : ownEntry(FILTERS, filter.name)
  if (read === undefined) throw cloudErrors.invalidFilter(filter.name)
  const tooLong = filter.values.find((value) => value.length > PATTERN_LIMIT)
  if (tooLong !== undefined) {
    throw cloudErrors.invalidParameterValue(`The filter value for '${filter.name}' is longer than ${PATTERN_LIMIT} characters`)
  }
  // EC2 filter values take `*` and `?` wildcards.
  const patterns = filter.values.map(compileWildcard)
  return (instance) => read(instance).some((value) => value !== null && patterns.some((matches) => matches(value)))
}

function pageSize(input: DescribeInstancesInput): number | undefined {
  if (input.maxResults === undefined) {
    if (input.nextToken !== undefined) decodeToken(input.nextToken)
    return undefined
  }
  if (input.instanceIds.length > 0) throw cloudErrors.maxResultsWithIds()
  const n = Number(input.maxResults)
  if (!/^\d+$/.test(input.maxResults) || n < 5 || n > 1000) {
    throw cloudErrors.invalidParameterValue(`Value ( ${input.maxResults} ) for parameter maxResults is invalid. Expecting a value between 5 and 1000.`)
  }
  return n
}

function encodeToken(offset: number): string {
  return Buffer.from(`doppel:${offset}`).toString('base64')
}

function decodeToken(token: string): number {
  const match = /^doppel:(\d+)$/.exec(Buffer.from(token, 'base64').toString('utf8'))
  if (!match) throw cloudErrors.invalidParameterValue(`Invalid value '${token}' for nextToken`)
  return Number(match[1])
}
