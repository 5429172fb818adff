import { closeListener } from './imds/imds-listener.ts'
import { cloudErrors } from './cloud-errors.ts'
import { insert, type CloudState, type InstanceRecord } from './cloud-state.ts'
import { isoSeconds } from '../../core/utc-date.ts'
import { keyPairSeed } from './ec2/key-pairs.ts'
import { assignPublicIp, publicDnsName } from './ec2/public-address.ts'
import type { Instance, InstanceInput, InstanceState, Principal } from './glossary.ts'
import { DEFAULT_ACCOUNT, DEFAULT_REGION } from './ids.ts'
import { parseInstanceInput, parseInstanceState, parseMetadataOptions, parsePrincipalInput } from './inventory-input.ts'
import {
  addInstanceProfile,
  addLongTermKey,
  addPrincipal,
  addSession,
  findInstanceProfile,
  findPrincipal,
  iamArn,
  removePrincipal,
} from './principals.ts'

/**
 * The inventory operations doppel adds to the provider (control API, fixtures, direct face): create
 * instances and principals, change instance states, delete principals. Each checks everything before it
 * writes anything.
 */

const DEFAULT_SESSION_NAME = 'doppel-session'
const STARTING: readonly InstanceState[] = ['pending', 'running']
const STOPPED: readonly InstanceState[] = ['stopping', 'stopped']

/** Launches an instance; missing fields are generated. An instance profile and role are created for `iam_role_name`. */
export function createInstance(state: CloudState, raw: unknown): InstanceRecord {
  const input = parseInstanceInput(raw)
  const { ids } = state
  const account = input.account_id ?? DEFAULT_ACCOUNT
  const region = input.region ?? input.availability_zone?.slice(0, -1) ?? DEFAULT_REGION
  const instanceId = input.instance_id ?? ids.ec2('i')
  if (state.instances.has(instanceId)) throw cloudErrors.instanceExists(instanceId)

  const roleName = input.iam_role_name
  let role = roleName === undefined ? undefined : findPrincipal(state, account, 'role', roleName)
  let profile = roleName === undefined ? undefined : findInstanceProfile(state, account, roleName)
  if (roleName !== undefined && profile !== undefined && profile.role_arn !== (role?.arn ?? iamArn(account, 'role', '/', roleName))) {
    throw cloudErrors.instanceProfileConflict(roleName)
  }

  const record: InstanceRecord = {
    instance_id: instanceId,
    account_id: account,
    region,
    availability_zone: input.availability_zone ?? region + state.emulator.random.pick(['a', 'b', 'c']),
    ami_id: input.ami_id ?? ids.ec2('ami'),
    vpc_id: input.vpc_id ?? ids.ec2('vpc'),
    subnet_id: input.subnet_id ?? ids.ec2('subnet'),
    instance_type: input.instance_type ?? 't3.micro',
    private_ip: input.private_ip ?? ids.privateIp(),
    iam_role_name: null,
    instance_profile_arn: null,
    iam_role_arn: null,
    instance_profile_id: null,
    state: input.state ?? 'running',
    tags: input.tags ?? {},
    pending_time: input.pending_time ?? isoSeconds(state.emulator.clock.nowMs()),
    http_tokens: input.http_tokens ?? 'optional',
    instance_metadata_tags: input.instance_metadata_tags ?? 'disabled',
    reservation_id: ids.ec2('r'),
    security_group_id: ids.ec2('sg'),
    mac: ids.mac(),
    network_interface_id: ids.ec2('eni'),
    imds_key_id: null,
    public_ip: null,
    public_dns_name: null,
    key_name: null,
    key_pair_seed: null,
  }
  Object.assign(record, publicFields(state, input, record))
  if (roleName !== undefined) {
    role ??= addPrincipal(state, { type: 'role', name: roleName, account, path: '/' })
    profile ??= addInstanceProfile(state, account, roleName, role.arn)
    Object.assign(record, {
      iam_role_name: role.name,
      iam_role_arn: role.arn,
      instance_profile_arn: profile.arn,
      instance_profile_id: profile.unique_id,
    })
  }
  if (!state.accounts.has(account)) insert(state, state.accounts, { account_id: account }, account)
  insert(state, state.instances, record, instanceId)
  state.lastInstance = instanceId
  return record
}

/** Moves an instance to a state. A start (stopped → pending/running) moves pending_time to now; terminated is final. */
export function setInstanceState(state: CloudState, instanceId: string, raw: unknown): InstanceRecord {
  const record = state.instances.get(instanceId)
  if (record === undefined) throw cloudErrors.instanceNotFound([instanceId])
  const next = parseInstanceState(raw, instanceId)
  if (record.state === 'terminated' && next !== 'terminated') throw cloudErrors.incorrectInstanceState(instanceId)
  const started = STOPPED.includes(record.state) && STARTING.includes(next)
  const updated: InstanceRecord = {
    ...record,
    state: next,
    pending_time: started ? isoSeconds(state.emulator.clock.nowMs()) : record.pending_time,
  }
  state.instances.set(updated)
  // A terminated instance has no metadata service: its socket goes.
  if (next === 'terminated') void closeListener(state, instanceId)
  return updated
}

/** Changes the given metadata options of an instance, as EC2's ModifyInstanceMetadataOptions; the others stay. */
export function modifyInstanceMetadataOptions(state: CloudState, instanceId: string, raw: unknown): InstanceRecord {
  const record = state.instances.get(instanceId)
  if (record === undefined) throw cloudErrors.instanceNotFound([instanceId])
  const options = parseMetadataOptions(raw, instanceId)
  if (record.state === 'terminated') throw cloudErrors.incorrectInstanceState(instanceId)
  const updated: InstanceRecord = { ...record, ...options }
  state.instances.set(updated)
  return updated
}

/** The public shape of an instance. */
export function toInstance(record: InstanceRecord): Instance {
  return {
    instance_id: record.instance_id,
    account_id: record.account_id,
    region: record.region,
    availability_zone: record.availability_zone,
    ami_id: record.ami_id,
    vpc_id: record.vpc_id,
    subnet_id: record.subnet_id,
    instance_type: record.instance_type,
    private_ip: record.private_ip,
    iam_role_name: record.iam_role_name,
    instance_profile_arn: record.instance_profile_arn,
    iam_role_arn: record.iam_role_arn,
    instance_profile_id: record.instance_profile_id,
    state: record.state,
    tags: { ...record.tags },
    pending_time: record.pending_time,
    http_tokens: record.http_tokens,
    instance_metadata_tags: record.instance_metadata_tags,
    public_ip: record.public_ip,
    public_dns_name: record.public_dns_name,
    key_name: record.key_name,
  }
}

/** The public address (assigned unless `public_ip` is null) and the key pair of a new instance. */
function publicFields(state: CloudState, input: InstanceInput, record: InstanceRecord) {
  const ip = input.public_ip === undefined ? assignPublicIp(record) : input.public_ip
  const keyName = input.key_name ?? null
  return {
    public_ip: ip,
    public_dns_name: ip === null ? null : (input.public_dns_name ?? publicDnsName(ip, record.region)),
    key_name: keyName,
    key_pair_seed: keyName === null ? null : keyPairSeed(state, record, keyName),
  }
}

/**
 * Creates an IAM user (with one long-term key) or a role (with the credentials of a fresh assumed-role
 * session, lasting the role's MaxSessionDuration).
 */
export function createPrincipal(state: CloudState, raw: unknown): Principal {
  const input = parsePrincipalInput(raw)
  const account = input.account_id ?? DEFAULT_ACCOUNT
  const name = input.name ?? freeName(state, account, input.type)
  const path = input.path ?? '/'
  if (findPrincipal(state, account, input.type, name) !== undefined) {
    throw input.type === 'user' ? cloudErrors.userExists(name) : cloudErrors.roleExists(name)
  }
  const principal = addPrincipal(state, {
    type: input.type,
    name,
    account,
    path,
    maxSessionDuration: input.max_session_duration,
    policies: input.policies,
    trustPolicy: input.trust_policy,
  })
  if (!state.accounts.has(account)) insert(state, state.accounts, { account_id: account }, account)
  const key =
    input.type === 'user'
      ? addLongTermKey(state, principal)
      : addSession(state, principal, input.session_name ?? DEFAULT_SESSION_NAME, principal.max_session_duration!)
  return {
    type: principal.type,
    name: principal.name,
    account_id: principal.account_id,
    path: principal.path,
    arn: principal.arn,
    unique_id: principal.unique_id,
    access_key_id: key.access_key_id,
    secret_access_key: key.secret_access_key,
    ...(key.session_token !== null && { session_token: key.session_token }),
  }
}

/**
 * Deletes a principal by ARN, or by name when exactly one principal has it; its keys and sessions stop
 * working at once. A principal created again with that name gets a new unique id.
 */
export function deletePrincipal(state: CloudState, arnOrName: string): boolean {
  const principal = arnOrName.startsWith('arn:') ? state.principals.get(arnOrName) : uniqueByName(state, arnOrName)
  if (principal === undefined) return false
  removePrincipal(state, principal)
  return true
}

function freeName(state: CloudState, account: string, type: 'user' | 'role'): string {
  for (;;) {
    const name = `doppel-${type}-${state.emulator.random.hex(12)}`
    if (findPrincipal(state, account, type, name) === undefined) return name
  }
}

function uniqueByName(state: CloudState, name: string) {
  const found = state.principals.findBy('anyName', name.toLowerCase())
  if (found.length > 1) throw cloudErrors.ambiguousPrincipal(name, found.length)
  return found[0]
}
