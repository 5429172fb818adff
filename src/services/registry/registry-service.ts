import type { RequestContext } from '../../core/glossary.ts'
import { StateTooLargeError } from '../../core/store.ts'
import { BodyTooLargeError, requestUrl } from '../../core/http.ts'
import { explainResponse } from '../../core/explanation.ts'
import { REGISTRY_ERROR_CODES } from './error-codes.ts'
import { ARCHIVE_LIMIT, archivist } from './api/archivist.ts'
import { discovery } from './api/discovery.ts'
import { registryErrorResponse } from './api/json-api.ts'
import { JSON_BODY_LIMIT, managementApi } from './api/management-api.ts'
import { readApi } from './api/read-api.ts'
import { RegistryError, registryErrors } from './api/registry-error.ts'
import { registryState } from './model/registry-state.ts'
import { ARCHIVIST_PREFIX, DISCOVERY_PATH, V1_PREFIX, V2_PREFIX } from './urls.ts'

/** The module registry: `/api/v2`, `/api/registry/v1`, discovery and the archivist object URLs (its set-up routes are the control API's). */
export async function registry(request: Request, context: RequestContext): Promise<Response> {
  const state = registryState(context.emulator)
  const url = requestUrl(request, context)
  const path = url.pathname
  try {
    if (path === DISCOVERY_PATH && request.method === 'GET') return discovery(context.emulator.basePath)
    if (path.startsWith(V1_PREFIX)) return readApi(request, state, url)
    if (path.startsWith(V2_PREFIX)) return await managementApi(request, state, url)
    if (path.startsWith(ARCHIVIST_PREFIX)) return await archivist(request, state, url)
    throw registryErrors.notFound()
  } catch (error) {
    if (error instanceof RegistryError) {
      const explanation = error.explanation ?? (error.status === 404 ? { rule: 'route', seen: `${request.method} ${path}`, hint: 'no registry route answers it' } : undefined)
      return explainResponse(registryErrorResponse(error), explanation ?? { rule: (REGISTRY_ERROR_CODES as Record<string, string>)[error.code] ?? error.code, seen: error.detail ?? error.title })
    }
    if (error instanceof StateTooLargeError) {
      return explainResponse(registryErrorResponse(registryErrors.stateTooLarge(error.message)), { rule: 'maxStateBytes', seen: error.message })
    }
    if (error instanceof BodyTooLargeError) {
      const limit = path.startsWith(ARCHIVIST_PREFIX) ? ARCHIVE_LIMIT : JSON_BODY_LIMIT
      return explainResponse(registryErrorResponse(registryErrors.tooLarge(limit)), { rule: 'body limit', seen: error.message, expected: `at most ${limit} bytes` })
    }
    throw error
  }
}
