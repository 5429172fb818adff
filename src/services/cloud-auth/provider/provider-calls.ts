/**
 * Every provider call the auth service makes, sent where `config/client` says (docs/reference/cloud-auth.md §9): EC2 to
 * `endpoint`, IAM to `iam_endpoint`, STS to `sts_endpoint` (signed for `sts_region`). An empty override, a
 * fake-cloud hostname or doppel's own cloud listener is answered in process by the fake cloud's direct
 * face; any other URL is a real outgoing request.
 */
import type { RequestContext } from '../../../core/glossary.ts'
import { getFakeCloud, isInProcessEndpoint, type AssumedRoleCredentials, type AwsCredentials, type CallerIdentity, type DescribedInstance, type IamEntity } from '../../fake-cloud/index.ts'
import type { AuthState } from '../state.ts'
import { remoteProvider, type RemoteTarget } from './remote-provider.ts'

/** The SDK's default number of retries (`max_retries` -1). */
const SDK_DEFAULT_RETRIES = 3
const IAM_REGION = 'us-east-1'
const STS_DEFAULT_REGION = 'us-east-1'

type Override = 'endpoint' | 'iam_endpoint' | 'sts_endpoint'

/** The remote target of a call, or undefined when the fake cloud answers it in process. */
function remote(context: RequestContext, state: AuthState, override: Override, region: string, credentials: AwsCredentials): RemoteTarget | undefined {
  const config = state.clientConfig
  const endpoint = config?.[override] ?? ''
  if (isInProcessEndpoint(context.emulator, endpoint)) return undefined
  const maxRetries = config !== undefined && config.max_retries >= 0 ? config.max_retries : SDK_DEFAULT_RETRIES
  return { endpoint, region, credentials, maxRetries, nowMs: context.emulator.clock.nowMs(), ...(context.signal && { signal: context.signal }) }
}

const stsRegion = (state: AuthState) => state.clientConfig?.sts_region || STS_DEFAULT_REGION

export interface ProviderCalls {
  getCallerIdentity(credentials: AwsCredentials): Promise<CallerIdentity>
  assumeRole(credentials: AwsCredentials, input: { roleArn: string; sessionName: string; externalId?: string; durationSeconds?: number }): Promise<AssumedRoleCredentials>
  describeInstance(credentials: AwsCredentials, region: string, instanceId: string): Promise<DescribedInstance>
  getInstanceProfile(credentials: AwsCredentials, name: string): Promise<IamEntity>
  getUser(credentials: AwsCredentials, name?: string): Promise<IamEntity>
  getRole(credentials: AwsCredentials, name: string): Promise<IamEntity>
  createAccessKey(credentials: AwsCredentials, userName: string): Promise<{ accessKeyId: string; secretAccessKey: string; userName: string }>
  deleteAccessKey(credentials: AwsCredentials, accessKeyId: string, userName: string): Promise<void>
}

/** The provider as this mount's configuration reaches it. Calls throw CloudError (or Error) like the SDK. */
export function providerCalls(context: RequestContext, state: AuthState): ProviderCalls {
  const cloud = getFakeCloud(context.emulator)
  const sts = (credentials: AwsCredentials) => remote(context, state, 'sts_endpoint', stsRegion(state), credentials)
  const iam = (credentials: AwsCredentials) => remote(context, state, 'iam_endpoint', IAM_REGION, credentials)
  return {
    getCallerIdentity: async (credentials) => {
      const target = sts(credentials)
      return target ? remoteProvider.getCallerIdentity(target) : cloud.getCallerIdentity(credentials)
    },
    assumeRole: async (credentials, input) => {
      const target = sts(credentials)
      return target ? remoteProvider.assumeRole(target, input) : cloud.assumeRole(credentials, input)
    },
    describeInstance: async (credentials, region, instanceId) => {
      const target = remote(context, state, 'endpoint', region, credentials)
      return target ? remoteProvider.describeInstance(target, instanceId) : cloud.describeInstance(credentials, region, instanceId)
    },
    getInstanceProfile: async (credentials, name) => {
      const target = iam(credentials)
      return target ? remoteProvider.getInstanceProfile(target, name) : cloud.getInstanceProfile(credentials, name)
    },
    getUser: async (credentials, name) => {
      const target = iam(credentials)
      return target ? remoteProvider.getUser(target, name) : cloud.getUser(credentials, name)
    },
    getRole: async (credentials, name) => {
      const target = iam(credentials)
      return target ? remoteProvider.getRole(target, name) : cloud.getRole(credentials, name)
    },
    createAccessKey: async (credentials, userName) => {
      const target = iam(credentials)
      return target ? remoteProvider.createAccessKey(target, userName) : cloud.createAccessKey(credentials, userName)
    },
    deleteAccessKey: async (credentials, accessKeyId, userName) => {
      const target = iam(credentials)
      return target ? remoteProvider.deleteAccessKey(target, accessKeyId, userName) : cloud.deleteAccessKey(credentials, accessKeyId, userName)
    },
  }
}
