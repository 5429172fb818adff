import type { RequestContext } from '../../core/glossary.ts'
import { decodeOrKeep } from '../../core/decode-segment.ts'
import { jsonResponse, requestUrl } from '../../core/http.ts'
import { CLOUD_MOUNT, cloudFaceOf, scopeService, type AwsFace } from './urls.ts'
import { cloudState, type CloudState } from './cloud-state.ts'
import { STS_MOUNT } from './fake-cloud-api.ts'
import { serveImds } from './imds/imds-service.ts'
import { serveQueryApi } from './query-api.ts'
import { LightResponse } from '../../core/light-response.ts'

/**
 * The fake cloud provider: IMDS, STS, EC2 and IAM, on the face `cloudFaceOf` picks (the one the server's
 * guard judges too): by path (`/_doppel/cloud/sts|iam|ec2|imds/…` on doppel's own listeners; the set-up
 * routes beside them are the control API's), then by the real hostnames (MSW mode: `169.254.169.254`
 * answers for the instance chosen with `useInstance`, else the last one created), then by the credential
 * scope's service name (the cloud listener, where the host tells nothing); an unsigned request there
 * reaches the metadata service.
 */
export async function fakeCloud(request: Request, context: RequestContext): Promise<Response> {
  const state = cloudState(context.emulator)
  const url = requestUrl(request, context)
  const host = url.hostname.toLowerCase()
  const face = cloudFaceOf(host, url.pathname, () => scopeService(request.headers.get('authorization') ?? undefined, url.search))
  if (url.pathname.startsWith(CLOUD_MOUNT)) return serveCloudFace(state, request, url, face)
  if (face === 'imds') return serveImds(state, state.selectedInstance ?? state.lastInstance, request, url.pathname)
  if (face !== undefined) return serveQueryApi(state, face, request)
  return new LightResponse(`doppel's fake cloud does not emulate ${host}: it serves STS, EC2, IAM and the instance metadata service\n`, {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  })
}

/**
 * The provider's services as SDK endpoint overrides (`/_doppel/cloud/sts`, `/ec2`, `/iam`) and per-instance
 * metadata (`/_doppel/cloud/imds/<id>/latest/…`). `Doppel.handle` sends the other `/_doppel/cloud/` paths
 * to the control API; called directly with one, this answers as the control API does for a path it lacks.
 */
function serveCloudFace(state: CloudState, request: Request, url: URL, face: AwsFace | undefined): Promise<Response> | Response {
  if (face === 'imds') {
    const [instanceId = '', ...path] = url.pathname.slice(`${CLOUD_MOUNT}imds/`.length).split('/')
    return serveImds(state, decodeOrKeep(instanceId), request, '/' + path.join('/'))
  }
  if (face !== undefined) return serveQueryApi(state, face, request, face === 'sts' ? STS_MOUNT : ['_doppel', 'cloud', face])
  return jsonResponse(404, { errors: [`unsupported path: ${request.method} ${url.pathname.replace(/\/+$/, '')}`] })
}
