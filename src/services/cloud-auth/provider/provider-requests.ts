/**
 * The provider calls as the SDK sends them (docs/reference/cloud-auth.md §9): which AWS service answers each,
 * its query-protocol action and parameters. The remote provider sends these; the journal shows them for a
 * call answered in process. The calls themselves are declared once, as the fake cloud's `ProviderCalls`.
 */
import type { ProviderCalls, QueryService } from '../../fake-cloud/index.ts'

export type CallName = keyof ProviderCalls
export type CallArgs<K extends CallName> = Parameters<ProviderCalls[K]>
export type CallResult<K extends CallName> = ReturnType<ProviderCalls[K]>

/** The provider as the auth service calls it: the same calls, answered asynchronously (in process or over HTTP). */
export type Provider = { [K in CallName]: (...args: CallArgs<K>) => Promise<CallResult<K>> }

interface CallRequest<K extends CallName> {
  service: QueryService
  action: string
  /** The query parameters beside Action and Version; the credentials sign the request, never appear in it. */
  params: (...args: CallArgs<K>) => Record<string, string>
}

export const PROVIDER_CALLS: { [K in CallName]: CallRequest<K> } = {
  getCallerIdentity: { service: 'sts', action: 'GetCallerIdentity', params: () => ({}) },
  assumeRole: {
    service: 'sts',
    action: 'AssumeRole',
    params: (_credentials, input) => ({
      RoleArn: input.roleArn,
      RoleSessionName: input.sessionName,
      ...(input.durationSeconds !== undefined && { DurationSeconds: String(input.durationSeconds) }),
      ...(input.externalId !== undefined && { ExternalId: input.externalId }),
    }),
  },
  describeInstance: { service: 'ec2', action: 'DescribeInstances', params: (_credentials, _region, instanceId) => ({ 'InstanceId.1': instanceId }) },
  getInstanceProfile: { service: 'iam', action: 'GetInstanceProfile', params: (_credentials, name) => ({ InstanceProfileName: name }) },
  getUser: { service: 'iam', action: 'GetUser', params: (_credentials, name) => ({ ...(name !== undefined && { UserName: name }) }) },
  getRole: { service: 'iam', action: 'GetRole', params: (_credentials, name) => ({ RoleName: name }) },
  createAccessKey: { service: 'iam', action: 'CreateAccessKey', params: (_credentials, userName) => ({ ...(userName !== undefined && { UserName: userName }) }) },
  deleteAccessKey: {
    service: 'iam',
    action: 'DeleteAccessKey',
    params: (_credentials, accessKeyId, userName) => ({ AccessKeyId: accessKeyId, ...(userName !== undefined && { UserName: userName }) }),
  },
}

type Dispatch = <K extends CallName>(name: K, args: CallArgs<K>) => Promise<CallResult<K>>

/** The eight calls on one prototype, each handing its name and arguments to the instance's dispatch. */
class DispatchingProvider {
  readonly dispatch: Dispatch
  constructor(dispatch: Dispatch) {
    this.dispatch = dispatch
  }
}
for (const name of Object.keys(PROVIDER_CALLS) as CallName[]) {
  Object.defineProperty(DispatchingProvider.prototype, name, {
    value: function (this: DispatchingProvider, ...args: never) {
      return this.dispatch(name, args)
    },
  })
}

/**
 * A provider whose every call is `dispatch(name, args)`: one rule for the eight calls, typed per call, and
 * one small object per provider (a login asks for several), not a closure per call.
 */
export function providerOf(dispatch: Dispatch): Provider {
  return new DispatchingProvider(dispatch) as unknown as Provider
}

/** The API version each service's query protocol names. */
const API_VERSIONS: Record<QueryService, string> = { sts: '2011-06-15', iam: '2010-05-08', ec2: '2016-11-15' }

/** A call's form body, as the SDK sends it. */
export function callForm<K extends CallName>(name: K, args: CallArgs<K>): string {
  const { service, action, params } = PROVIDER_CALLS[name]
  return new URLSearchParams({ Action: action, Version: API_VERSIONS[service], ...(params as (...a: CallArgs<K>) => Record<string, string>)(...args) }).toString()
}
