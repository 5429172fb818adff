import { explainResponse, type Explanation } from '../../../core/explanation.ts'
import { jsonResponse } from '../../../core/http.ts'
import { REGISTRY_V1_ERRORS, type RegistryError } from './registry-error.ts'
import { LightResponse } from '../../../core/light-response.ts'

/** JSON:API documents and error objects of the registry's management API (docs/reference/registry.md §1.5, docs/reference/registry.md §4.2). */

export const JSON_API = 'application/vnd.api+json'

/** A JSON:API document response. */
export function jsonApiResponse(status: number, document: unknown, headers: Record<string, string> = {}): Response {
  return new LightResponse(JSON.stringify(document), { status, headers: { 'Content-Type': JSON_API, ...headers } })
}

export interface JsonApiErrorObject {
  status: string
  title: string
  detail?: string
  source?: { pointer: string }
}

/** One error object: `status` as a string, as HCP Terraform sends it. */
export function jsonApiError(status: number, title: string, detail?: string, pointer?: string): JsonApiErrorObject {
  return {
    status: String(status),
    title,
    ...(detail !== undefined && { detail }),
    ...(pointer !== undefined && { source: { pointer } }),
  }
}

/** An `errors` document response. */
export function jsonApiErrors(status: number, errors: JsonApiErrorObject[], headers: Record<string, string> = {}): Response {
  return jsonApiResponse(status, { errors }, headers)
}

/** The JSON:API answer to a RegistryError. */
export function registryErrorResponse(error: RegistryError): Response {
  return jsonApiErrors(error.status, [jsonApiError(error.status, error.title, error.detail, error.pointer)])
}

/** The registry protocol's error style for `/api/registry/v1`: `{"errors":["Not Found"]}`, `application/json`. */
export function registryV1ErrorResponse(status: 401 | 404, why: Explanation): Response {
  return explainResponse(jsonResponse(status, { errors: [REGISTRY_V1_ERRORS[status]] }), why)
}

/** The body an injected fault answers with on the registry. */
export function registryFaultResponse(status: number): Response {
  if (status === 429) {
    return jsonApiErrors(429, [jsonApiError(429, 'Too many requests', "You have exceeded the API's rate limit.")], {
      'X-RateLimit-Limit': '30',
      'X-RateLimit-Reset': '1.0',
      'Retry-After': '1',
    })
  }
  const titles: Record<number, string> = { 500: 'internal server error', 502: 'bad gateway', 503: 'service unavailable', 504: 'gateway timeout' }
  return jsonApiErrors(status, [jsonApiError(status, titles[status] ?? 'injected fault')])
}
