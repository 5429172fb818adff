/** `GET /_doppel/openapi.json`: the OpenAPI document of both services on this emulator's profile. */
import type { RequestContext } from '../core/glossary.ts'
import { jsonResponse } from '../core/http.ts'

export const OPENAPI_PATH = '/_doppel/openapi.json'

export async function openApiRoute(request: Request, context: RequestContext): Promise<Response> {
  if (request.method !== 'GET') return jsonResponse(405, { errors: ['unsupported operation'] })
  const { openApiDocument } = await import('../openapi/index.ts')
  return jsonResponse(200, openApiDocument({ profile: context.profile.name }))
}
