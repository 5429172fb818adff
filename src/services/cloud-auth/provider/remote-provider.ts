/**
 * The provider calls made over real HTTP to a user-configured endpoint (another emulator, a stub, real
 * AWS): SigV4-signed query-protocol POSTs, answers read from their XML. Errors surface as the Go SDK shows
 * them: a `CloudError` for an error answer, `RequestError: send request failed…` when none came.
 */
import { CloudError, signedFormHeaders, type AwsCredentials, type IamEntity, type QueryService } from '../../fake-cloud/index.ts'
import { callForm, PROVIDER_CALLS, providerOf, type CallArgs, type CallName, type CallResult, type Provider } from './provider-requests.ts'
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

/** Where and how the calls of one service go over HTTP. */
interface RemoteTarget {
  endpoint: string
  /** The region the calls are signed for (an EC2 call names its own). */
  region: string
  maxRetries: number
  nowMs: number
  /** The server's shutdown: ends the call and its retries. */
  signal?: AbortSignal
}

/** The SDK's retry backoff (aws-sdk-go's default retryer: 30 ms base). */
const SDK_BACKOFF = { minMs: 30, maxMs: 300 }

/** How the Go SDK words a call that got no answer. */
export function sendFailed(url: string, reason: string): Error {
  return new Error(`RequestError: send request failed\ncaused by: Post ${JSON.stringify(url)}: ${reason}`)
}

/** The provider over HTTP at `target`: each call a SigV4-signed query-protocol POST, its answer read from the XML. */
export function remoteProvider(target: RemoteTarget): Provider {
  return providerOf(async (name, args) => {
    const [credentials] = args
    // EC2 is regional: DescribeInstances is signed for the region it names.
    const region = name === 'describeInstance' ? (args[1] as string) : target.region
    const root = await call(PROVIDER_CALLS[name].service, callForm(name, args), { ...target, region }, credentials)
    return READ_ANSWER[name](root, args)
  })
}

/** One query-protocol call; the parsed root of a 200 answer, else throws. */
async function call(service: QueryService, body: string, target: RemoteTarget, credentials: AwsCredentials): Promise<XmlElement> {
  const url = new URL(target.endpoint)
  if (url.pathname === '') url.pathname = '/'
  const headers = new Headers(signedFormHeaders({ url, body, region: target.region, service, credentials, nowMs: target.nowMs }))
  let answer
  try {
    answer = await sendUpstream(url.href, { method: 'POST', headers, body }, { maxRetries: target.maxRetries, backoff: SDK_BACKOFF, ...(target.signal && { signal: target.signal }) })
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error
    throw sendFailed(error.url, error.reason)
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

/** What each call reads of its answer's XML. */
const READ_ANSWER: { [K in CallName]: (root: XmlElement, args: CallArgs<K>) => CallResult<K> } = {
  getCallerIdentity(root) {
    const result = child(root, 'GetCallerIdentityResult')
    return { arn: required(childText(result, 'Arn')), userId: required(childText(result, 'UserId')), account: required(childText(result, 'Account')) }
  },

  assumeRole(root) {
    const result = child(root, 'AssumeRoleResult')
    return {
      accessKeyId: required(childText(result, 'Credentials', 'AccessKeyId')),
      secretAccessKey: required(childText(result, 'Credentials', 'SecretAccessKey')),
      sessionToken: required(childText(result, 'Credentials', 'SessionToken')),
      expiration: required(childText(result, 'Credentials', 'Expiration')),
      assumedRoleArn: required(childText(result, 'AssumedRoleUser', 'Arn')),
      assumedRoleId: required(childText(result, 'AssumedRoleUser', 'AssumedRoleId')),
    }
  },

  describeInstance(root, [, , instanceId]) {
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

  getUser: (root) => entity(child(root, 'GetUserResult', 'User'), 'UserName', 'UserId'),

  getRole: (root) => entity(child(root, 'GetRoleResult', 'Role'), 'RoleName', 'RoleId'),

  getInstanceProfile(root) {
    const profile = child(root, 'GetInstanceProfileResult', 'InstanceProfile')
    return {
      ...entity(profile, 'InstanceProfileName', 'InstanceProfileId'),
      roles: children(profile, 'member', 'Roles').map((role) => {
        const { arn, id, name: roleName } = entity(role, 'RoleName', 'RoleId')
        return { arn, id, name: roleName }
      }),
    }
  },

  createAccessKey(root) {
    const key = child(root, 'CreateAccessKeyResult', 'AccessKey')
    return {
      accessKeyId: required(childText(key, 'AccessKeyId')),
      secretAccessKey: required(childText(key, 'SecretAccessKey')),
      userName: required(childText(key, 'UserName')),
    }
  },

  deleteAccessKey: () => undefined,
}

function entity(element: XmlElement | undefined, nameField: string, idField: string): IamEntity {
  return {
    arn: required(childText(element, 'Arn')),
    id: required(childText(element, idField)),
    name: required(childText(element, nameField)),
    path: required(childText(element, 'Path')),
  }
}
