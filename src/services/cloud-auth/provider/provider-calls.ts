/**
 * Every provider call the auth service makes, sent where `config/client` says (docs/reference/cloud-auth.md §9): EC2 to
 * `endpoint`, IAM to `iam_endpoint`, STS to `sts_endpoint` (signed for `sts_region`). An empty override, a
 * fake-cloud hostname or doppel's own cloud listener is answered in process by the fake cloud's direct
 * face; any other URL is a real outgoing request.
 */
import type { RequestContext } from '../../../core/glossary.ts'
import { getFakeCloud, isInProcessEndpoint, regionAtAwsHost, type AssumedRoleCredentials, type AwsCredentials, type CallerIdentity, type DescribedInstance, type IamEntity } from '../../fake-cloud/index.ts'
import type { AuthState } from '../state.ts'
import { remoteProvider, type RemoteTarget } from './remote-provider.ts'

/** The SDK's default number of retries (`max_retries` -1). */
const SDK_DEFAULT_RETRIES = 3
const IAM_REGION = 'us-east-1'
const STS_DEFAULT_REGION = 'us-east-1'

type Override = 'endpoint' | 'iam_endpoint' | 'sts_endpoint'
const SERVICE_OF: Record<Override, 'ec2' | 'iam' | 'sts'> = { endpoint: 'ec2', iam_endpoint: 'iam', sts_endpoint: 'sts' }

/**
 * Where a call goes: a remote target, or the region the fake cloud answers it in, in process; an override
 * that names an AWS host name is met as that host would meet the call (`regionAtAwsHost` throws its refusal).
 */
type Route = { remote: RemoteTarget } | { region: string }

function route(context: RequestContext, state: AuthState, override: Override, region: string, credentials: AwsCredentials): Route {
  const config = state.clientConfig
  const endpoint = config?.[override] ?? ''
  if (isInProcessEndpoint(context.emulator, endpoint)) return { region: regionAtAwsHost(SERVICE_OF[override], endpoint, region) }
  const maxRetries = config !== undefined && config.max_retries >= 0 ? config.max_retries : SDK_DEFAULT_RETRIES
  return { remote: { endpoint, region, credentials, maxRetries, nowMs: context.emulator.clock.nowMs(), ...(context.signal && { signal: context.signal }) } }
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
  const sts = (credentials: AwsCredentials) => route(context, state, 'sts_endpoint', stsRegion(state), credentials)
  const iam = (credentials: AwsCredentials) => route(context, state, 'iam_endpoint', IAM_REGION, credentials)
  return {
    getCallerIdentity: async (credentials) => {
      const to = sts(credentials)
      return 'remote' in to ? remoteProvider.getCallerIdentity(to.remote) : cloud.getCallerIdentity(credentials)
    },
    assumeRole: async (credentials, input) => {
      const to = sts(credentials)
      return 'remote' in to ? remoteProvider.assumeRole(to.remote, input) : cloud.assumeRole(credentials, input)
    },
    describeInstance: async (credentials, region, instanceId) => {
      const to = route(context, state, 'endpoint', region, credentials)
      return 'remote' in to ? remoteProvider.describeInstance(to.remote, instanceId) : cloud.describeInstance(credentials, to.region, instanceId)
    },
    getInstanceProfile: async (credentials, name) => {
      const to = iam(credentials)
      return 'remote' in to ? remoteProvider.getInstanceProfile(to.remote, name) : cloud.getInstanceProfile(credentials, name)
    },
    getUser: async (credentials, name) => {
      const to = iam(credentials)
      return 'remote' in to ? remoteProvider.getUser(to.remote, name) : cloud.getUser(credentials, name)
    },
    getRole: async (credentials, name) => {
      const to = iam(credentials)
      return 'remote' in to ? remoteProvider.getRole(to.remote, name) : cloud.getRole(credentials, name)
    },
    createAccessKey: async (credentials, userName) => {
      const to = iam(credentials)
      return 'remote' in to ? remoteProvider.createAccessKey(to.remote, userName) : cloud.createAccessKey(credentials, userName)
    },
    deleteAccessKey: async (credentials, accessKeyId, userName) => {
      const to = iam(credentials)
      return 'remote' in to ? remoteProvider.deleteAccessKey(to.remote, accessKeyId, userName) : cloud.deleteAccessKey(credentials, accessKeyId, userName)
    },
  }
}
