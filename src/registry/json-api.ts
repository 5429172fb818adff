/** JSON:API documents and error objects of the registry's management API (reference §1.5, §4.2). */

export const JSON_API = 'application/vnd.api+json'

export function jsonApiResponse(status: number, document: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(document), { status, headers: { 'Content-Type': JSON_API, ...headers } })
}

export interface JsonApiErrorObject {
  status: string
  title: string
  detail?: string
  source?: { pointer: string }
}

export function jsonApiError(status: number, title: string, detail?: string, pointer?: string): JsonApiErrorObject {
  return {
    status: String(status),
    title,
    ...(detail !== undefined && { detail }),
    ...(pointer !== undefined && { source: { pointer } }),
  }
}

export function jsonApiErrors(status: number, errors: JsonApiErrorObject[], headers: Record<string, string> = {}): Response {
  return jsonApiResponse(status, { errors }, headers)
}

export const UNAUTHORIZED = () => jsonApiErrors(401, [jsonApiError(401, 'unauthorized')])
export const NOT_FOUND = () => jsonApiErrors(404, [jsonApiError(404, 'not found')])
export const INVALID_CONTENT_TYPE = () =>
  jsonApiErrors(415, [jsonApiError(415, 'invalid content type', 'content-type must be application/vnd.api+json')])

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
