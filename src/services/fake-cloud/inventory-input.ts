import { unknownField } from '../../core/did-you-mean.ts'
import { isoSeconds } from '../../core/utc-date.ts'
import { cloudErrors } from './cloud-errors.ts'
import type { InstanceInput, InstanceState, MetadataOptions, PrincipalInput } from './glossary.ts'
import { policyDocumentProblem, policyListProblem } from './iam/policy-document.ts'

/**
 * Validation of doppel's own inventory inputs (control API bodies, fixtures, direct face), in one table per
 * input. Messages read `Failed to <operation>: "<field>" must be <what>`.
 */
interface FieldRule {
  test: (value: unknown) => boolean
  expected: string
}

const INSTANCE_STATES: readonly InstanceState[] = ['pending', 'running', 'stopping', 'stopped', 'shutting-down', 'terminated']

const matches = (pattern: RegExp) => (value: unknown) => typeof value === 'string' && pattern.test(value)
const ec2Id = (prefix: string) => matches(new RegExp(`^${prefix}-(?:[0-9a-f]{8}|[0-9a-f]{17})$`))
const oneOf = (values: readonly string[]) => (value: unknown) => typeof value === 'string' && values.includes(value)
const NAME = /^[\w+=,.@-]{1,64}$/
const REGION = /^[a-z]{2}(?:-gov|-iso[a-z]?)?-[a-z]+-\d{1,2}$/

const INSTANCE_RULES: Record<keyof InstanceInput, FieldRule> = {
  instance_id: { test: ec2Id('i'), expected: 'an instance id: "i-" and 8 or 17 lower-case hex digits' },
  account_id: { test: matches(/^\d{12}$/), expected: 'a 12-digit account id' },
  region: { test: matches(REGION), expected: 'a region name such as "us-east-1"' },
  availability_zone: { test: matches(/^[a-z]{2}(?:-gov|-iso[a-z]?)?-[a-z]+-\d{1,2}[a-z]$/), expected: 'an availability zone such as "us-east-1a"' },
  ami_id: { test: ec2Id('ami'), expected: 'an image id: "ami-" and 8 or 17 lower-case hex digits' },
  vpc_id: { test: ec2Id('vpc'), expected: 'a VPC id: "vpc-" and 8 or 17 lower-case hex digits' },
  subnet_id: { test: ec2Id('subnet'), expected: 'a subnet id: "subnet-" and 8 or 17 lower-case hex digits' },
  instance_type: { test: matches(/^[a-z0-9-]+\.[a-z0-9]+$/), expected: 'an instance type such as "t3.micro"' },
  private_ip: { test: isIpv4, expected: 'an IPv4 address' },
  iam_role_name: { test: matches(NAME), expected: 'a role name of 1 to 64 characters [A-Za-z0-9+=,.@_-]' },
  state: { test: oneOf(INSTANCE_STATES), expected: `one of ${INSTANCE_STATES.join(', ')}` },
  tags: { test: isTagMap, expected: 'an object of string values (keys 1-128 characters, not starting "aws:"; values up to 256)' },
  pending_time: { test: isRfc3339Seconds, expected: 'a UTC time such as "2024-03-05T09:41:27Z"' },
  http_tokens: { test: oneOf(['optional', 'required']), expected: 'one of optional, required' },
  instance_metadata_tags: { test: oneOf(['enabled', 'disabled']), expected: 'one of enabled, disabled' },
  public_ip: { test: (v) => v === null || isIpv4(v), expected: 'an IPv4 address, or null for none' },
  public_dns_name: { test: isHostName, expected: 'a DNS name such as "ec2-3-80-1-2.compute-1.amazonaws.com"' },
  key_name: { test: (v) => v === null || matches(/^[\x20-\x7e]{1,255}$/)(v), expected: 'a key pair name of 1 to 255 ASCII characters, or null for none' },
}

const PRINCIPAL_RULES: Record<keyof PrincipalInput, FieldRule> = {
  type: { test: oneOf(['user', 'role']), expected: 'one of user, role' },
  name: { test: matches(NAME), expected: 'a name of 1 to 64 characters [A-Za-z0-9+=,.@_-]' },
  account_id: { test: matches(/^\d{12}$/), expected: 'a 12-digit account id' },
  path: { test: (v) => matches(/^\/(?:[\x21-\x7e]*\/)?$/)(v) && (v as string).length <= 512, expected: 'an IAM path such as "/" or "/division/"' },
  session_name: { test: matches(/^[\w+=,.@-]{2,64}$/), expected: 'a session name of 2 to 64 characters [A-Za-z0-9+=,.@_-]' },
  max_session_duration: {
    test: (v) => Number.isInteger(v) && (v as number) >= 3600 && (v as number) <= 43200,
    expected: 'an integer number of seconds from 3600 to 43200',
  },
  policies: { test: (v) => policyListProblem(v) === undefined, expected: 'a list of policy documents ({"Statement": [{Effect, Action, Resource}]})' },
  trust_policy: {
    test: (v) => policyDocumentProblem(v, true) === undefined,
    expected: 'a trust policy ({"Statement": [{Effect, Action, Principal, Condition?}]})',
  },
}

/** A checked InstanceInput; the region follows the availability zone when only the zone is given. */
export function parseInstanceInput(value: unknown): InstanceInput {
  const input = checkObject<InstanceInput>(value, INSTANCE_RULES, 'Failed to create an instance')
  if (input.availability_zone !== undefined && input.region !== undefined && !input.availability_zone.startsWith(input.region)) {
    throw cloudErrors.badInput(`Failed to create an instance: "availability_zone" ${input.availability_zone} is not in region ${input.region}`)
  }
  if (input.public_dns_name !== undefined && input.public_ip === null) {
    throw cloudErrors.badInput('Failed to create an instance: "public_dns_name" needs a public IP ("public_ip" is null)')
  }
  return input
}

/** A checked PrincipalInput (`type` required). */
export function parsePrincipalInput(value: unknown): PrincipalInput {
  const input = checkObject<PrincipalInput>(value, PRINCIPAL_RULES, 'Failed to create a principal')
  if (input.type === undefined) throw cloudErrors.badInput('Failed to create a principal: "type" must be one of user, role')
  if (input.type === 'user' && input.trust_policy !== undefined) throw cloudErrors.badInput('Failed to create a principal: "trust_policy" is for roles only')
  return input
}

/** A checked instance state for `setInstanceState`. */
export function parseInstanceState(value: unknown, instanceId: string): InstanceState {
  if (!INSTANCE_RULES.state.test(value)) {
    throw cloudErrors.badInput(`Failed to change the state of instance ${instanceId}: "state" must be ${INSTANCE_RULES.state.expected}`)
  }
  return value as InstanceState
}

const METADATA_OPTION_RULES: Record<keyof MetadataOptions, FieldRule> = {
  http_tokens: INSTANCE_RULES.http_tokens,
  instance_metadata_tags: INSTANCE_RULES.instance_metadata_tags,
}

/** Checked metadata options for `modifyInstanceMetadataOptions`. */
export function parseMetadataOptions(value: unknown, instanceId: string): MetadataOptions {
  return checkObject<MetadataOptions>(value, METADATA_OPTION_RULES, `Failed to change the metadata options of instance ${instanceId}`)
}

function checkObject<T>(value: unknown, rules: Record<string, FieldRule>, operation: string): T {
  if (value === undefined || value === null) return {} as T
  if (typeof value !== 'object' || Array.isArray(value)) throw cloudErrors.badInput(`${operation}: the input must be an object`)
  const unknown = unknownField(value, Object.keys(rules))
  if (unknown !== undefined) throw cloudErrors.badInput(`${operation}: ${unknown}`)
  for (const [field, fieldValue] of Object.entries(value)) {
    const rule = rules[field]!
    if (fieldValue !== undefined && !rule.test(fieldValue)) throw cloudErrors.badInput(`${operation}: "${field}" must be ${rule.expected}`)
  }
  return structuredClone(value) as T
}

function isIpv4(value: unknown): boolean {
  if (typeof value !== 'string') return false
  const parts = value.split('.')
  return parts.length === 4 && parts.every((p) => /^(?:0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)
}

function isHostName(value: unknown): boolean {
  return typeof value === 'string' && value.length <= 253 && /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(value)
}

function isTagMap(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  return Object.entries(value).every(
    ([k, v]) => k.length >= 1 && k.length <= 128 && !k.startsWith('aws:') && typeof v === 'string' && v.length <= 256,
  )
}

/** A UTC time to the second as AWS prints it (`isoSeconds`): also what a snapshot's dates must be. */
export function isRfc3339Seconds(value: unknown): boolean {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(value)) return false
  const ms = Date.parse(value)
  return Number.isFinite(ms) && isoSeconds(ms) === value
}
