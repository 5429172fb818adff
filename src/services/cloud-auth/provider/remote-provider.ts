/**
 * The provider calls made over real HTTP to a user-configured endpoint (another emulator, a stub, real
 * AWS): SigV4-signed query-protocol POSTs, answers read from their XML. Errors surface as the Go SDK shows
 * them: a `CloudError` for an error answer, `RequestError: send request failed…` when none came.
 */
import { CloudError, signedFormHeaders, type AssumedRoleCredentials, type AwsCredentials, type CallerIdentity, type DescribedInstance, type IamEntity } from '../../fake-cloud/index.ts'
import { child, childText, children, parseXml, type XmlElement } from './xml-tree.ts'
import { sendUpstream, UpstreamError } from './upstream-http.ts'
import { errorKind } from '../../../core/doppel-error.ts'

/** What a DescribeInstances answer lacked; the login words it as the real service does (docs/reference/cloud-auth.md §4 D.2). */
export type MissingDescription = 'reservations' | 'instances' | 'state'

export class IncompleteDescription extends errorKind('IncompleteDescription', 'DOPPEL_INSTANCE_CHECK_FAILED') {
  readonly missing: MissingDescription
  constructor(missing: MissingDescription) {
    super(`DescribeInstances answer without ${missing}`)
    this.missing = missing
  }
}

/** An error answer of a provider over HTTP, with the request id it carried (EC2 `RequestID`, else `RequestId`). */
export class UpstreamCloudError extends CloudError {
  readonly requestId: string | undefined
  constructor(code: string, message: string, status: number, requestId: string | undefined) {
    super(code, message, status)
    this.requestId = requestId
  }
}

export interface RemoteTarget {
  endpoint: string
  region: string
  credentials: AwsCredentials
  maxRetries: number
  nowMs: number
  /** The server's shutdown: ends the call and its retries. */
  signal?: AbortSignal
}

const VERSIONS = { sts: '2011-06-15', iam: '2010-05-08', ec2: '2016-11-15' } as const
/** The SDK's retry backoff (aws-sdk-go's default retryer: 30 ms base). */
const SDK_BACKOFF = { minMs: 30, maxMs: 300 }

/** One query-protocol call; the parsed root of a 200 answer, else throws. */
async function call(service: keyof typeof VERSIONS, action: string, params: Record<string, string>, target: RemoteTarget): Promise<XmlElement> {
  const url = new URL(target.endpoint)
  if (url.pathname === '') url.pathname = '/'
  const body = new URLSearchParams({ Action: action, Version: VERSIONS[service], ...params }).toString()
  const headers = new Headers(signedFormHeaders({ url, body, region: target.region, service, credentials: target.credentials, nowMs: target.nowMs }))
  let answer
  try {
    answer = await sendUpstream(url.href, { method: 'POST', headers, body }, { maxRetries: target.maxRetries, backoff: SDK_BACKOFF, ...(target.signal && { signal: target.signal }) })
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error
    throw new Error(`RequestError: send request failed\ncaused by: Post ${JSON.stringify(error.url)}: ${error.reason}`)
  }
  const root = parseXml(answer.body)
  if (answer.status !== 200) {
    const failure = child(root, 'Error') ?? child(root, 'Errors', 'Error')
    const code = childText(failure, 'Code')
    if (code === undefined) throw new CloudError('SerializationError', `failed to decode query XML error response (status ${answer.status})`, answer.status)
    const requestId = childText(root, 'RequestID') ?? childText(root, 'RequestId')
    throw new UpstreamCloudError(code, childText(failure, 'Message') ?? '', answer.status, requestId)
  }
  if (root === undefined) throw new CloudError('SerializationError', 'failed to decode query XML response', answer.status)
  return root
}

const required = (value: string | undefined): string => value ?? ''

export const remoteProvider = {
  async getCallerIdentity(target: RemoteTarget): Promise<CallerIdentity> {
    const result = child(await call('sts', 'GetCallerIdentity', {}, target), 'GetCallerIdentityResult')
    return { arn: required(childText(result, 'Arn')), userId: required(childText(result, 'UserId')), account: required(childText(result, 'Account')) }
  },

  async assumeRole(target: RemoteTarget, input: { roleArn: string; sessionName: string; externalId?: string; durationSeconds?: number }): Promise<AssumedRoleCredentials> {
    const params: Record<string, string> = { RoleArn: input.roleArn, RoleSessionName: input.sessionName }
    if (input.durationSeconds !== undefined) params.DurationSeconds = String(input.durationSeconds)
    if (input.externalId !== undefined) params.ExternalId = input.externalId
    const result = child(await call('sts', 'AssumeRole', params, target), 'AssumeRoleResult')
    return {
      accessKeyId: required(childText(result, 'Credentials', 'AccessKeyId')),
      secretAccessKey: required(childText(result, 'Credentials', 'SecretAccessKey')),
      sessionToken: required(childText(result, 'Credentials', 'SessionToken')),
      expiration: required(childText(result, 'Credentials', 'Expiration')),
      assumedRoleArn: required(childText(result, 'AssumedRoleUser', 'Arn')),
      assumedRoleId: required(childText(result, 'AssumedRoleUser', 'AssumedRoleId')),
    }
  },

  async describeInstance(target: RemoteTarget, instanceId: string): Promise<DescribedInstance> {
    const root = await call('ec2', 'DescribeInstances', { 'InstanceId.1': instanceId }, target)
    const reservation = children(root, 'item', 'reservationSet')[0]
    if (reservation === undefined) throw new IncompleteDescription('reservations')
    const instance = children(reservation, 'item', 'instancesSet')[0]
    if (instance === undefined) throw new IncompleteDescription('instances')
    const id = required(childText(instance, 'instanceId'))
    // The real service compares the id before it looks at the state: a wrong id is refused as such.
    if (id === instanceId && child(instance, 'instanceState') === undefined) throw new IncompleteDescription('state')
    const profile = child(instance, 'iamInstanceProfile')
    return {
      instanceId: id,
      imageId: childText(instance, 'imageId'),
      subnetId: childText(instance, 'subnetId'),
      vpcId: childText(instance, 'vpcId'),
      state: { code: Number(childText(instance, 'instanceState', 'code') ?? 0), name: required(childText(instance, 'instanceState', 'name')) },
      launchTime: required(childText(instance, 'launchTime')).replace(/\.\d+Z$/, 'Z'),
      privateDnsName: childText(instance, 'privateDnsName') ?? '',
      iamInstanceProfile: profile === undefined ? undefined : { arn: childText(profile, 'arn'), id: required(childText(profile, 'id')) },
      tags: children(instance, 'item', 'tagSet').map((tag) => ({ key: required(childText(tag, 'key')), value: required(childText(tag, 'value')) })),
      ownerId: required(childText(reservation, 'ownerId')),
    }
  },

  async getUser(target: RemoteTarget, name?: string): Promise<IamEntity> {
    const root = await call('iam', 'GetUser', name === undefined ? {} : { UserName: name }, target)
    return entity(child(root, 'GetUserResult', 'User'), 'UserName', 'UserId')
  },

  async getRole(target: RemoteTarget, name: string): Promise<IamEntity> {
    return entity(child(await call('iam', 'GetRole', { RoleName: name }, target), 'GetRoleResult', 'Role'), 'RoleName', 'RoleId')
  },

  async getInstanceProfile(target: RemoteTarget, name: string): Promise<IamEntity> {
    const profile = child(await call('iam', 'GetInstanceProfile', { InstanceProfileName: name }, target), 'GetInstanceProfileResult', 'InstanceProfile')
    return {
      ...entity(profile, 'InstanceProfileName', 'InstanceProfileId'),
      roles: children(profile, 'member', 'Roles').map((role) => {
        const { arn, id, name: roleName } = entity(role, 'RoleName', 'RoleId')
        return { arn, id, name: roleName }
      }),
    }
  },

  async createAccessKey(target: RemoteTarget, userName: string): Promise<{ accessKeyId: string; secretAccessKey: string; userName: string }> {
    const key = child(await call('iam', 'CreateAccessKey', { UserName: userName }, target), 'CreateAccessKeyResult', 'AccessKey')
    return {
      accessKeyId: required(childText(key, 'AccessKeyId')),
      secretAccessKey: required(childText(key, 'SecretAccessKey')),
      userName: required(childText(key, 'UserName')),
    }
  },

  async deleteAccessKey(target: RemoteTarget, accessKeyId: string, userName: string): Promise<void> {
    await call('iam', 'DeleteAccessKey', { AccessKeyId: accessKeyId, UserName: userName }, target)
  },
}

function entity(element: XmlElement | undefined, nameField: string, idField: string): IamEntity {
  return {
    arn: required(childText(element, 'Arn')),
    id: required(childText(element, idField)),
    name: required(childText(element, nameField)),
    path: required(childText(element, 'Path')),
  }
}
