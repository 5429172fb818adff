import { NestingTooDeepError, parseJsonBounded } from '../core/bounded-parse.ts'
import { BodyTooLargeError, jsonResponse, readBodyText } from '../core/http.ts'
import { cloudErrors } from './cloud-errors.ts'
import type { CloudState } from './cloud-state.ts'
import { STS_MOUNT } from './fake-cloud-api.ts'
import { CloudError, type IdentityFormat } from './glossary.ts'
import { IDENTITY_FORMATS, identityDocument } from './identity/identity-document.ts'
import { closeListener, startImdsListener } from './imds/imds-listener.ts'
import { serveImds } from './imds/imds-service.ts'
import { consistencySettings, setConsistency } from './iam/key-propagation.ts'
import { listInstances, listPrincipals } from './inventory-listing.ts'
import { createInstance, createPrincipal, deletePrincipal, setInstanceState, toInstance } from './inventory.ts'
import { serveQueryApi } from './query-api.ts'
import { LightResponse } from '../core/light-response.ts'

/**
 * The fake cloud under `/_doppel/cloud/` on doppel's own listeners: the control API (instances, principals,
 * identity documents, IMDS listeners) and the provider's services as SDK endpoint overrides
 * (`/_doppel/cloud/sts`, `/ec2`, `/iam`) and per-instance metadata (`/_doppel/cloud/imds/<id>/latest/…`).
 * Bad control input answers 400 `{"errors":["…"]}`.
 */
const PREFIX = '/_doppel/cloud/'
const CONTROL_BODY_LIMIT = 1024 * 1024

type Route = (state: CloudState, request: Request, params: string[]) => Promise<Response>

const ROUTES: { method: string; pattern: RegExp; run: Route }[] = [
  { method: 'GET', pattern: /^instances$/, run: async (state) => ok({ instances: listInstances(state) }) },
  { method: 'GET', pattern: /^principals$/, run: async (state) => ok({ principals: listPrincipals(state) }) },
  { method: 'GET', pattern: /^consistency$/, run: async (state) => ok(consistencySettings(state)) },
  { method: 'POST', pattern: /^consistency$/, run: async (state, request) => ok(setConsistency(state, await readJson(request))) },
  { method: 'POST', pattern: /^instances$/, run: async (state, request) => created(toInstance(createInstance(state, await readJson(request)))) },
  { method: 'GET', pattern: /^instances\/([^/]+)$/, run: async (state, _request, [id]) => ok(toInstance(instanceOrThrow(state, id!))) },
  {
    method: 'POST',
    pattern: /^instances\/([^/]+)\/state$/,
    run: async (state, request, [id]) => ok(toInstance(setInstanceState(state, id!, (await readJson(request)).state))),
  },
  { method: 'POST', pattern: /^instances\/([^/]+)\/imds$/, run: async (state, _request, [id]) => ok(await startImdsListener(state, id!)) },
  {
    method: 'DELETE',
    pattern: /^instances\/([^/]+)\/imds$/,
    run: async (state, _request, [id]) =>
      (await closeListener(state, id!)) ? new Response(null, { status: 204 }) : fail(404, `Failed to close the metadata listener: instance "${id}" has none`),
  },
  { method: 'POST', pattern: /^principals$/, run: async (state, request) => created(createPrincipal(state, await readJson(request))) },
  {
    method: 'DELETE',
    pattern: /^principals\/(.+)$/,
    run: async (state, _request, [arnOrName]) =>
      deletePrincipal(state, arnOrName!) ? new LightResponse(null, { status: 204 }) : fail(404, `Failed to delete principal "${arnOrName}": no such principal`),
  },
  {
    method: 'POST',
    pattern: /^identity-document$/,
    run: async (state, request) => {
      const body = await readJson(request)
      if (typeof body.instance_id !== 'string') return fail(400, 'Failed to sign the identity document: "instance_id" must be a string')
      const format = body.format ?? 'rsa2048'
      if (!IDENTITY_FORMATS.includes(format as IdentityFormat)) {
        return fail(400, `Failed to sign the identity document: "format" must be one of ${IDENTITY_FORMATS.join(', ')}`)
      }
      return ok({ value: identityDocument(state, instanceOrThrow(state, body.instance_id), format as IdentityFormat) })
    },
  },
  {
    method: 'POST',
    pattern: /^use-instance$/,
    run: async (state, request) => {
      const body = await readJson(request)
      if (typeof body.instance_id !== 'string') return fail(400, 'Failed to choose the metadata instance: "instance_id" must be a string')
      state.selectedInstance = instanceOrThrow(state, body.instance_id).instance_id
      return ok({ instance_id: state.selectedInstance })
    },
  },
]

/** Answers a request whose path starts with `/_doppel/cloud/`. */
export async function serveCloudControl(state: CloudState, request: Request, url: URL): Promise<Response> {
  const rest = url.pathname.slice(PREFIX.length)
  const [first, ...more] = rest.split('/')
  if (first === 'sts' || first === 'iam' || first === 'ec2') {
    return serveQueryApi(state, first, request, first === 'sts' ? STS_MOUNT : ['_doppel', 'cloud', first])
  }
  if (first === 'imds') {
    const [instanceId = '', ...path] = more
    return serveImds(state, decodeSegment(instanceId), request, '/' + path.join('/'))
  }
  const path = rest.replace(/\/+$/, '')
  const matching = ROUTES.filter((route) => route.pattern.test(path))
  if (matching.length === 0) return fail(404, `unsupported path: ${request.method} ${url.pathname}`)
  const route = matching.find((r) => r.method === request.method)
  if (route === undefined) return fail(405, 'unsupported operation')
  try {
    return await route.run(state, request, route.pattern.exec(path)!.slice(1).map(decodeSegment))
  } catch (error) {
    if (error instanceof NestingTooDeepError) return fail(400, `Failed to read the request: the body is ${error.message}`)
    if (error instanceof SyntaxError) return fail(400, 'Failed to read the request: the body must be a JSON object')
    if (error instanceof BodyTooLargeError) return fail(413, 'Failed to read the request: the body is too large')
    if (error instanceof CloudError) return fail(controlStatus(error), error.message)
    throw error
  }
}

/** Missing things are 404 on the control API; other provider errors keep their status (400, 409). */
function controlStatus(error: CloudError): number {
  return error.code.endsWith('.NotFound') || error.code === 'NoSuchEntity' ? 404 : error.status
}

function instanceOrThrow(state: CloudState, instanceId: string) {
  const record = state.instances.get(instanceId)
  if (record === undefined) throw cloudErrors.instanceNotFound([instanceId])
  return record
}

async function readJson(request: Request): Promise<Record<string, unknown>> {
  const text = await readBodyText(request, CONTROL_BODY_LIMIT)
  if (text.trim() === '') return {}
  const value: unknown = parseJsonBounded(text)
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SyntaxError('not an object')
  return value as Record<string, unknown>
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

const ok = (body: unknown) => jsonResponse(200, body)
const created = (body: unknown) => jsonResponse(201, body)
const fail = (status: number, message: string) => jsonResponse(status, { errors: [message] })
