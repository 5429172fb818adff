/**
 * Every provider call the auth service makes, sent where `config/client` says (docs/reference/cloud-auth.md §9): EC2 to
 * `endpoint`, IAM to `iam_endpoint`, STS to `sts_endpoint` (signed for `sts_region`). An empty override, a
 * fake-cloud hostname or doppel's own cloud listener is answered in process by the fake cloud's direct
 * face, through the emulator's faults and journal (`observed-call.ts`); any other URL is a real outgoing
 * request (`remote-provider.ts`).
 */
import type { RequestContext } from '../../../core/glossary.ts'
import { defaultAwsEndpoint, getFakeCloud, isInProcessEndpoint, regionAtAwsHost, type QueryService } from '../../fake-cloud/index.ts'
import type { AuthState } from '../state.ts'
import { observedCall } from './observed-call.ts'
import { callForm, PROVIDER_CALLS, providerOf, type CallArgs, type CallName, type CallResult, type Provider } from './provider-requests.ts'
import { remoteProvider } from './remote-provider.ts'

/** The SDK's default number of retries (`max_retries` -1). */
const SDK_DEFAULT_RETRIES = 3
const IAM_REGION = 'us-east-1'
const STS_DEFAULT_REGION = 'us-east-1'

const OVERRIDE: Record<QueryService, 'endpoint' | 'iam_endpoint' | 'sts_endpoint'> = { ec2: 'endpoint', iam: 'iam_endpoint', sts: 'sts_endpoint' }

/** The provider as this mount's configuration reaches it. Calls throw CloudError (or Error) like the SDK. */
export function providerCalls(context: RequestContext, state: AuthState): Provider {
  return providerOf((name, args) => callProvider(context, state, name, args))
}

async function callProvider<K extends CallName>(context: RequestContext, state: AuthState, name: K, args: CallArgs<K>): Promise<CallResult<K>> {
  const { service } = PROVIDER_CALLS[name]
  const config = state.clientConfig
  const endpoint = config?.[OVERRIDE[service]] ?? ''
  // EC2 is regional: DescribeInstances names its region.
  const region = service === 'ec2' ? (args[1] as string) : service === 'sts' ? config?.sts_region || STS_DEFAULT_REGION : IAM_REGION
  const maxRetries = config !== undefined && config.max_retries >= 0 ? config.max_retries : SDK_DEFAULT_RETRIES
  const { emulator } = context
  if (!isInProcessEndpoint(emulator, endpoint)) {
    const target = { endpoint, region, maxRetries, nowMs: emulator.clock.nowMs(), ...(context.signal && { signal: context.signal }) }
    return remoteProvider(target)[name](...args)
  }
  const site = { service, url: endpoint === '' ? defaultAwsEndpoint(service, region) : endpoint }
  return observedCall(context, site, maxRetries, () => callForm(name, args), () => {
    // An override naming an AWS host name is met as that host would meet the call (its refusal thrown).
    const answeredIn = regionAtAwsHost(service, endpoint, region)
    const cloud = getFakeCloud(emulator)
    const call = cloud[name] as (...callArgs: unknown[]) => CallResult<K>
    return name === 'describeInstance' ? call.call(cloud, args[0], answeredIn, args[2]) : call.apply(cloud, args)
  })
}
