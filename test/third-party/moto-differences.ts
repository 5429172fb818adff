// Where moto's server (5.2.5) and doppel's fake cloud answer the differential's calls in different shapes
// (moto-differential.test.ts), by call, each group with its reason; docs/limits-and-differences.md lists them
// for users. The sentences are shapeDifferences' (answer-shapes.ts).

// moto checks no signature and no parameter; AWS checks both, and so does doppel
// (docs/reference/fake-cloud.md §4.4, docs/reference/fake-cloud.md §5, docs/reference/fake-cloud.md §6.3).
const refusedByDoppel = (status: number, code: string, type: string | null) => [
  `status: moto 200, doppel ${status}`,
  `error: moto null, doppel ${JSON.stringify({ code, type })}`,
]

// EC2's envelope: AWS answers text/xml;charset=UTF-8, and its namespace ends in a slash
// (docs/reference/fake-cloud.md §6.2); its error envelope has no namespace (docs/reference/fake-cloud.md §6.3).
// moto drops both.
const ec2Envelope = (error: boolean) => [
  'content type: moto "text/xml", doppel "text/xml;charset=UTF-8"',
  `namespace: moto "http://ec2.amazonaws.com/doc/2016-11-15", doppel "${error ? '' : 'http://ec2.amazonaws.com/doc/2016-11-15/'}"`,
]

// An instance: moto orders an item's members by name, doppel as EC2 does (docs/reference/fake-cloud.md §6.2:
// instanceId first, then the model's order; placement's availabilityZone first). moto describes a root
// volume, a network interface, SR-IOV, an empty state reason and hibernation options that doppel leaves out or
// empty (Vault and the SDK users this fake serves read none of them); doppel gives each instance its default
// security group (moto's run without one) and an empty tagSet.
const INSTANCE = 'reservationSet/item/instancesSet/item'
const instanceMembers = (withProfile: boolean) => {
  const profile = withProfile ? ['iamInstanceProfile'] : []
  const moto = ['architecture', 'blockDeviceMapping', 'clientToken', 'ebsOptimized', 'hypervisor', ...profile, 'networkInterfaceSet', 'rootDeviceName', 'rootDeviceType', 'groupSet', 'sourceDestCheck', 'virtualizationType', 'metadataOptions']
  const shared = ['instanceId', 'imageId', 'instanceState', 'privateDnsName', 'dnsName', 'reason', 'amiLaunchIndex', 'productCodes', 'instanceType', 'launchTime', 'placement', 'monitoring', 'subnetId', 'vpcId', 'privateIpAddress', 'ipAddress']
  const doppel = ['sourceDestCheck', 'groupSet', 'architecture', 'rootDeviceType', 'rootDeviceName', 'blockDeviceMapping', 'virtualizationType', 'clientToken', 'hypervisor', 'networkInterfaceSet', ...profile, 'ebsOptimized', 'metadataOptions']
  return [
    `only moto: ${['blockDeviceMapping/item', 'networkInterfaceSet/item', 'sriovNetSupport', 'stateReason', 'hibernationOptions'].map((m) => `${INSTANCE}/${m}`).join(', ')}`,
    `only doppel: ${INSTANCE}/groupSet/item, ${INSTANCE}/tagSet`,
    `order under ${INSTANCE}: moto ${[...moto, ...shared].join(' ')}; doppel ${[...shared, ...doppel].join(' ')}`,
    `order under ${INSTANCE}/placement: moto groupName tenancy availabilityZone; doppel availabilityZone groupName tenancy`,
  ]
}
const describeInstances = (withProfile: boolean) => [...ec2Envelope(false), ...instanceMembers(withProfile)]

// IAM: moto adds a lower-case `message` beside `Message` to its errors; AWS does not (docs/reference/fake-cloud.md §7).
const iamErrorMessage = ['only moto: Error/message']

// GetCallerIdentity: AWS answers Arn, UserId, Account (docs/reference/fake-cloud.md §4.2), as doppel does.
const callerOrder = ['order under GetCallerIdentityResult: moto UserId Account Arn; doppel Arn UserId Account']

export const KNOWN_DIFFERENCES: Record<string, string[]> = {
  'sts GetCallerIdentity': callerOrder,
  // AWS gives PackedPolicySize only with a session policy or tags, and AssumedRoleUser before Credentials
  // (docs/reference/fake-cloud.md §4.5).
  'sts AssumeRole': ['only moto: AssumeRoleResult/PackedPolicySize', 'order under AssumeRoleResult: moto Credentials AssumedRoleUser; doppel AssumedRoleUser Credentials'],
  'sts GetCallerIdentity as the assumed role': callerOrder,
  'sts AssumeRole, a session name with a space': refusedByDoppel(400, 'ValidationError', 'Sender'),
  'sts AssumeRole, DurationSeconds 60': refusedByDoppel(400, 'ValidationError', 'Sender'),
  'sts GetCallerIdentity, a wrong secret': refusedByDoppel(403, 'SignatureDoesNotMatch', 'Sender'),
  'sts GetCallerIdentity, an unknown key': refusedByDoppel(403, 'InvalidClientTokenId', 'Sender'),
  'ec2 DescribeInstances by id': describeInstances(true),
  'ec2 DescribeInstances by filter': describeInstances(true),
  'ec2 DescribeInstances, a filter that matches nothing': ec2Envelope(false),
  // EC2 puts nextToken after the reservations (docs/reference/fake-cloud.md §6.2).
  'ec2 DescribeInstances, MaxResults 5': [...ec2Envelope(false), ...instanceMembers(true).slice(0, 2), 'order under (result): moto nextToken reservationSet; doppel reservationSet nextToken', ...instanceMembers(true).slice(2)],
  'ec2 DescribeInstances, the second page': describeInstances(false),
  'ec2 DescribeInstances, an id that does not exist': ec2Envelope(true),
  // AWS tells a malformed id from a missing one (docs/reference/fake-cloud.md §6.3).
  'ec2 DescribeInstances, a malformed id': [
    'error: moto {"code":"InvalidInstanceID.NotFound","type":null}, doppel {"code":"InvalidInstanceID.Malformed","type":null}',
    ...ec2Envelope(true),
  ],
  'ec2 DescribeInstances, InstanceIds with MaxResults': ec2Envelope(true),
  'ec2 DescribeInstances, DryRun': ec2Envelope(true),
  'ec2 DescribeInstances, a wrong secret': [...refusedByDoppel(401, 'AuthFailure', null), ...ec2Envelope(true)],
  // moto makes up a last use of a role never used; doppel, like AWS for such a role, says none (unverified
  // whether AWS sends an empty RoleLastUsed).
  'iam GetRole': ['only moto: GetRoleResult/Role/RoleLastUsed'],
  // moto adds empty Tags and RoleLastUsed to an instance profile and its role; AWS's GetInstanceProfile sample
  // has neither.
  'iam GetInstanceProfile': [
    'only moto: GetInstanceProfileResult/InstanceProfile/Roles/member/Tags, GetInstanceProfileResult/InstanceProfile/Roles/member/RoleLastUsed, GetInstanceProfileResult/InstanceProfile/Tags',
  ],
  // AWS's ListAccessKeysResult carries UserName and IsTruncated (docs/reference/fake-cloud.md §7.3); moto leaves
  // them out.
  'iam ListAccessKeys': ['only doppel: ListAccessKeysResult/IsTruncated, ListAccessKeysResult/UserName'],
  'iam ListAccessKeys, MaxItems 1': ['only doppel: ListAccessKeysResult/IsTruncated, ListAccessKeysResult/UserName'],
  'iam GetUser, a user that does not exist': iamErrorMessage,
  'iam GetRole, a role that does not exist': iamErrorMessage,
  'iam GetInstanceProfile, one that does not exist': iamErrorMessage,
  'iam CreateAccessKey, past two keys': iamErrorMessage,
  'iam GetUser, a wrong secret': refusedByDoppel(403, 'SignatureDoesNotMatch', 'Sender'),
}
