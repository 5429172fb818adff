import type { RequestContext } from '../../core/glossary.ts'
import { decodeOrKeep } from '../../core/decode-segment.ts'
import { jsonResponse, requestUrl } from '../../core/http.ts'
import { awsFaceOf, awsServiceOfHost, CLOUD_MOUNT, isAwsHost, isMetadataHost } from './urls.ts'
import { cloudState, type CloudState } from './cloud-state.ts'
import { STS_MOUNT } from './fake-cloud-api.ts'
import { serveImds } from './imds/imds-service.ts'
import { serveQueryApi } from './query-api.ts'
import type { QueryService } from './query-xml.ts'
import { LightResponse } from '../../core/light-response.ts'

const SCOPE_SERVICE = /Credential=[^/,\s]*\/\d{8}\/[^/,\s]*\/(sts|iam|ec2)\//

/**
 * The fake cloud provider: IMDS, STS, EC2 and IAM. Routes by path (`/_doppel/cloud/sts|iam|ec2|imds/…` on
 * doppel's own listeners; the set-up routes beside them are the control API's), then by the real hostnames (MSW mode: `169.254.169.254` answers for the instance chosen with
 * `useInstance`, else the last one created), then by the credential scope's service name (the cloud
 * listener, where the host tells nothing); an unsigned request there reaches the metadata service.
 */
export async function fakeCloud(request: Request, context: RequestContext): Promise<Response> {
  const state = cloudState(context.emulator)
  const url = requestUrl(request, context)
  if (url.pathname.startsWith(CLOUD_MOUNT)) return serveCloudFace(state, request, url)
  const host = url.hostname.toLowerCase()
  const metadataInstance = state.selectedInstance ?? state.lastInstance
  const api = cloudApiOf(request, url)
  if (api === 'imds') return serveImds(state, metadataInstance, request, url.pathname)
  if (api !== undefined) return serveQueryApi(state, api, request)
  if (isAwsHost(host)) {
    return new LightResponse(`doppel's fake cloud does not emulate ${host}: it serves STS, EC2, IAM and the instance metadata service\n`, {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    })
  }
  return serveImds(state, metadataInstance, request, url.pathname)
}

/**
 * Which of its APIs the fake cloud answers a request to a host name with: the metadata service at its
 * addresses, else STS, EC2 or IAM by the host name or, where the name tells nothing, by the signature's
 * credential scope; undefined for any other request (an AWS name it does not emulate, an unsigned request
 * on another host). The MSW handlers leave such a request to the next handler.
 */
export function cloudApiOf(request: Request, url: URL): 'imds' | QueryService | undefined {
  const host = url.hostname.toLowerCase()
  if (isMetadataHost(host)) return 'imds'
  return (awsServiceOfHost(host) ?? scopeService(request, url)) as QueryService | undefined
}

function scopeService(request: Request, url: URL): string | undefined {
  const credential = request.headers.get('authorization') ?? `Credential=${url.searchParams.get('X-Amz-Credential') ?? ''}`
  return SCOPE_SERVICE.exec(credential)?.[1]
}

/**
 * The provider's services as SDK endpoint overrides (`/_doppel/cloud/sts`, `/ec2`, `/iam`) and per-instance
 * metadata (`/_doppel/cloud/imds/<id>/latest/…`). `Doppel.handle` sends the other `/_doppel/cloud/` paths
 * to the control API; called directly with one, this answers as the control API does for a path it lacks.
 */
export function serveCloudFace(state: CloudState, request: Request, url: URL): Promise<Response> | Response {
  const face = awsFaceOf(url.pathname)
  if (face === 'imds') {
    const [instanceId = '', ...path] = url.pathname.slice(`${CLOUD_MOUNT}imds/`.length).split('/')
    return serveImds(state, decodeOrKeep(instanceId), request, '/' + path.join('/'))
  }
  if (face !== undefined) return serveQueryApi(state, face, request, face === 'sts' ? STS_MOUNT : ['_doppel', 'cloud', face])
  return jsonResponse(404, { errors: [`unsupported path: ${request.method} ${url.pathname.replace(/\/+$/, '')}`] })
}
