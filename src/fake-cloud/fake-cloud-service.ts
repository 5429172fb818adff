import type { RequestContext } from '../core/glossary.ts'
import { requestUrl } from '../core/http.ts'
import { awsServiceOfHost, isAwsHost, isMetadataHost } from './aws-hosts.ts'
import { serveCloudControl } from './cloud-control.ts'
import { cloudState } from './cloud-state.ts'
import { serveImds } from './imds/imds-service.ts'
import { serveQueryApi } from './query-api.ts'
import type { QueryService } from './query-xml.ts'
import { LightResponse } from '../core/light-response.ts'

const SCOPE_SERVICE = /Credential=[^/,\s]*\/\d{8}\/[^/,\s]*\/(sts|iam|ec2)\//

/**
 * The fake cloud provider: IMDS, STS, EC2 and IAM. Routes by path (`/_doppel/cloud/…` on doppel's own
 * listeners), then by the real hostnames (MSW mode: `169.254.169.254` answers for the instance chosen with
 * `useInstance`, else the last one created), then by the credential scope's service name (the cloud
 * listener, where the host tells nothing); an unsigned request there reaches the metadata service.
 */
export async function fakeCloud(request: Request, context: RequestContext): Promise<Response> {
  const state = cloudState(context.emulator)
  const url = requestUrl(request, context)
  if (url.pathname.startsWith('/_doppel/cloud/')) return serveCloudControl(state, request, url)
  const host = url.hostname.toLowerCase()
  const metadataInstance = state.selectedInstance ?? state.lastInstance
  if (isMetadataHost(host)) return serveImds(state, metadataInstance, request, url.pathname)
  const service = (awsServiceOfHost(host) ?? scopeService(request, url)) as QueryService | undefined
  if (service !== undefined) return serveQueryApi(state, service, request)
  if (isAwsHost(host)) {
    return new LightResponse(`doppel's fake cloud does not emulate ${host}: it serves STS, EC2, IAM and the instance metadata service\n`, {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    })
  }
  return serveImds(state, metadataInstance, request, url.pathname)
}

function scopeService(request: Request, url: URL): string | undefined {
  const credential = request.headers.get('authorization') ?? `Credential=${url.searchParams.get('X-Amz-Credential') ?? ''}`
  return SCOPE_SERVICE.exec(credential)?.[1]
}
