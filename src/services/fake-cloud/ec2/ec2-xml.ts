import type { InstanceRecord } from '../cloud-state.ts'
import { element, textElement } from '../query-xml.ts'
import { INSTANCE_STATE_CODES } from './instance-state-codes.ts'
import { shownPublicIp } from './public-address.ts'

/** The DescribeInstances body (docs/reference/fake-cloud.md §6.2): one reservation per instance, EC2's `<item>` lists. */
export function describeInstancesXml(instances: InstanceRecord[], nextToken: string | undefined): string {
  return element('reservationSet', ...instances.map(reservation)) + textElement('nextToken', nextToken)
}

const items = (name: string, entries: string[]): string => element(name, ...entries.map((entry) => element('item', entry)))

function reservation(instance: InstanceRecord): string {
  return element(
    'item',
    textElement('reservationId', instance.reservation_id),
    textElement('ownerId', instance.account_id),
    element('groupSet'),
    items('instancesSet', [instanceXml(instance)]),
  )
}

/** The instance's private DNS name, as EC2 and its metadata service give it: `ip-10-0-1-2.ec2.internal`. */
export function privateHostname(instance: Pick<InstanceRecord, 'private_ip' | 'region'>): string {
  return `ip-${instance.private_ip.replace(/\./g, '-')}.${privateDnsDomain(instance.region)}`
}

function instanceXml(i: InstanceRecord): string {
  const running = i.state !== 'stopped' && i.state !== 'terminated'
  const publicIp = shownPublicIp(i)
  return [
    textElement('instanceId', i.instance_id),
    textElement('imageId', i.ami_id),
    element('instanceState', textElement('code', INSTANCE_STATE_CODES[i.state]), textElement('name', i.state)),
    textElement('privateDnsName', running ? privateHostname(i) : ''),
    publicIp === null ? element('dnsName') : textElement('dnsName', i.public_dns_name),
    element('reason'),
    textElement('keyName', i.key_name),
    textElement('amiLaunchIndex', 0),
    element('productCodes'),
    textElement('instanceType', i.instance_type),
    textElement('launchTime', i.pending_time.replace('Z', '.000Z')),
    element('placement', textElement('availabilityZone', i.availability_zone), element('groupName'), textElement('tenancy', 'default')),
    element('monitoring', textElement('state', 'disabled')),
    textElement('subnetId', i.subnet_id),
    textElement('vpcId', i.vpc_id),
    textElement('privateIpAddress', i.private_ip),
    textElement('ipAddress', publicIp),
    textElement('sourceDestCheck', true),
    items('groupSet', [textElement('groupId', i.security_group_id) + textElement('groupName', 'default')]),
    textElement('architecture', 'x86_64'),
    textElement('rootDeviceType', 'ebs'),
    textElement('rootDeviceName', '/dev/xvda'),
    element('blockDeviceMapping'),
    textElement('virtualizationType', 'hvm'),
    element('clientToken'),
    items(
      'tagSet',
      Object.entries(i.tags).map(([key, value]) => textElement('key', key) + textElement('value', value)),
    ),
    textElement('hypervisor', 'xen'),
    element('networkInterfaceSet'),
    i.instance_profile_arn === null
      ? ''
      : element('iamInstanceProfile', textElement('arn', i.instance_profile_arn), textElement('id', i.instance_profile_id)),
    textElement('ebsOptimized', false),
    // Every member of EC2's InstanceMetadataOptionsResponse, in its order; the options doppel does not model
    // have EC2's defaults (applied, one hop, no IPv6 endpoint).
    element(
      'metadataOptions',
      textElement('state', 'applied'),
      textElement('httpTokens', i.http_tokens),
      textElement('httpPutResponseHopLimit', 1),
      textElement('httpEndpoint', 'enabled'),
      textElement('httpProtocolIpv6', 'disabled'),
      textElement('instanceMetadataTags', i.instance_metadata_tags),
    ),
  ].join('')
}

/** `ec2.internal` in us-east-1, `<region>.compute.internal` elsewhere. */
function privateDnsDomain(region: string): string {
  return region === 'us-east-1' ? 'ec2.internal' : `${region}.compute.internal`
}
