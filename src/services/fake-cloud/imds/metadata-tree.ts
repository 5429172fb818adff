import type { CloudState, InstanceRecord } from '../cloud-state.ts'
import { isoSeconds } from '../../../core/utc-date.ts'
import { privateHostname } from '../ec2/ec2-xml.ts'
import { formatAwsJson, identityDocument } from '../identity/issue-document.ts'
import { addSession } from '../principals.ts'
import { openSshPublicKey } from '../ec2/key-pairs.ts'
import type { IdentityFormat } from '../glossary.ts'

/**
 * One instance's metadata as a tree: directories are objects, leaves are functions computing their text on
 * demand (so asking for the role's credentials is what issues them). docs/reference/fake-cloud.md §2.2, docs/reference/fake-cloud.md §2.5.
 */
export interface MetadataDirectory {
  [name: string]: MetadataDirectory | (() => string)
  /** How the directory lists itself when that differs from its children's names (`public-keys/`: `0=<name>`). */
  [LISTING]?: string[]
}

/** The key of a directory's own listing. */
export const LISTING: unique symbol = Symbol('listing')

/** A leaf whose text is fixed when the tree is built. */
const constant = (text: string) => () => text

const IMDS_SESSION_SECONDS = 6 * 3600
/** A session is re-issued when less than this is left, as AWS publishes new credentials well before expiry. */
const ROTATE_BEFORE_MS = 15 * 60 * 1000

/**
 * The `meta-data` and `dynamic` trees of an instance, entries in the order real IMDS lists them (reference
 * docs/reference/fake-cloud.md §2.2): alphabetical under `meta-data/`; `iam/` only with a role, `public-*` only with a public address,
 * `public-keys/` only with a key pair.
 */
export function metadataTree(state: CloudState, instance: InstanceRecord): { 'meta-data': MetadataDirectory; dynamic: MetadataDirectory } {
  const hostname = privateHostname(instance)
  const publicIp = instance.public_ip
  const iam = iamDirectory(state, instance)
  const metaData: MetadataDirectory = {
    'ami-id': constant(instance.ami_id),
    'ami-launch-index': constant('0'),
    'ami-manifest-path': constant('(unknown)'),
    'block-device-mapping': { ami: constant('/dev/xvda'), root: constant('/dev/xvda') },
    events: { maintenance: { history: constant('[]'), scheduled: constant('[]') } },
    hostname: constant(hostname),
    ...(iam !== undefined && { iam }),
    'instance-action': constant('none'),
    'instance-id': constant(instance.instance_id),
    'instance-life-cycle': constant('on-demand'),
    'instance-type': constant(instance.instance_type),
    'local-hostname': constant(hostname),
    'local-ipv4': constant(instance.private_ip),
    mac: constant(instance.mac),
    metrics: { vhostmd: constant('<?xml version="1.0" encoding="UTF-8"?>') },
    network: { interfaces: { macs: { [instance.mac]: networkInterface(instance, hostname) } } },
    placement: { 'availability-zone': constant(instance.availability_zone), region: constant(instance.region) },
    profile: constant('default-hvm'),
    ...(publicIp !== null && { 'public-hostname': constant(instance.public_dns_name ?? ''), 'public-ipv4': constant(publicIp) }),
    ...(instance.key_name !== null && instance.key_pair_seed !== null && { 'public-keys': publicKeys(instance.key_name, instance.key_pair_seed) }),
    'reservation-id': constant(instance.reservation_id),
    'security-groups': constant('default'),
    services: { domain: constant('amazonaws.com'), partition: constant('aws') },
  }
  // Tags are served only with tag access on (EC2's InstanceMetadataTags, off by default).
  if (instance.instance_metadata_tags === 'enabled' && Object.keys(instance.tags).length > 0) {
    metaData.tags = { instance: Object.fromEntries(Object.entries(instance.tags).map(([key, value]) => [key, constant(value)])) }
  }
  const identity = (format: IdentityFormat) => () => identityDocument(state, instance, format)
  return {
    'meta-data': metaData,
    dynamic: {
      // The order real IMDS lists them in (docs/reference/fake-cloud.md §2.2).
      'instance-identity': {
        rsa2048: identity('rsa2048'),
        pkcs7: identity('pkcs7'),
        document: identity('document'),
        signature: identity('signature'),
        dsa2048: identity('dsa2048'),
      },
    },
  }
}

/** `iam/`, when the instance has a role: the instance profile and the role's session credentials. */
function iamDirectory(state: CloudState, instance: InstanceRecord): MetadataDirectory | undefined {
  const role = instance.iam_role_arn === null ? undefined : state.principals.get(instance.iam_role_arn)
  if (role === undefined || instance.instance_profile_arn === null) return undefined
  return {
    info: () =>
      formatAwsJson({
        Code: 'Success',
        LastUpdated: isoSeconds(state.emulator.clock.nowMs()),
        InstanceProfileArn: instance.instance_profile_arn,
        InstanceProfileId: instance.instance_profile_id,
      }),
    'security-credentials': { [role.name]: () => roleCredentials(state, instance) },
  }
}

/** `network/interfaces/macs/<mac>/`: the one interface, with its public address when it has one. */
function networkInterface(instance: InstanceRecord, hostname: string): MetadataDirectory {
  const publicIp = instance.public_ip
  return {
    'device-number': constant('0'),
    'interface-id': constant(instance.network_interface_id),
    ...(publicIp !== null && { 'ipv4-associations': { [publicIp]: constant(instance.private_ip) } }),
    'local-hostname': constant(hostname),
    'local-ipv4s': constant(instance.private_ip),
    mac: constant(instance.mac),
    'owner-id': constant(instance.account_id),
    ...(publicIp !== null && { 'public-hostname': constant(instance.public_dns_name ?? ''), 'public-ipv4s': constant(publicIp) }),
    'security-group-ids': constant(instance.security_group_id),
    'security-groups': constant('default'),
    'subnet-id': constant(instance.subnet_id),
    'vpc-id': constant(instance.vpc_id),
  }
}

/** `public-keys/` lists `0=<key name>`; `public-keys/0/` holds the key in OpenSSH form. */
function publicKeys(name: string, seed: string): MetadataDirectory {
  return { 0: { 'openssh-key': () => openSshPublicKey(seed, name) }, [LISTING]: [`0=${name}`] }
}

/** The role session of the instance (session name = instance id), re-issued shortly before it expires. */
function roleCredentials(state: CloudState, instance: InstanceRecord): string {
  const now = state.emulator.clock.nowMs()
  let key = instance.imds_key_id === null ? undefined : state.keys.get(instance.imds_key_id)
  if (key === undefined || key.expires_ms! - now < ROTATE_BEFORE_MS) {
    key = addSession(state, state.principals.get(instance.iam_role_arn!)!, instance.instance_id, IMDS_SESSION_SECONDS)
    state.instances.set({ ...instance, imds_key_id: key.access_key_id })
  }
  return formatAwsJson({
    Code: 'Success',
    LastUpdated: key.create_date,
    Type: 'AWS-HMAC',
    AccessKeyId: key.access_key_id,
    SecretAccessKey: key.secret_access_key,
    Token: key.session_token,
    Expiration: isoSeconds(key.expires_ms!),
  })
}
