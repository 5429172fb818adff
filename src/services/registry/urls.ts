import { errorsEnvelope, type ServiceUrls } from '../../core/routing/index.ts'
import { jsonApiError, jsonApiErrors } from './api/json-api.ts'

/** Terraform's service discovery document. */
export const DISCOVERY_PATH = '/.well-known/terraform.json'
/** Every path under it is the registry's (one it lacks answers the registry's 404). */
export const REGISTRY_API_PREFIX = '/api/'
/** The registry protocol's reads (`{"errors":[…]}` bodies). */
export const V1_PREFIX = '/api/registry/v1/'
/** The management API (JSON:API). */
export const V2_PREFIX = '/api/v2/'
/** Upload and download objects (the object id is the credential). */
export const ARCHIVIST_PREFIX = '/_archivist/'
/** Its set-up routes, answered by the control API. */
export const SETUP_PREFIX = '/_doppel/registry/'

const REFUSAL_TITLES: Record<number, string> = { 400: 'bad request', 401: 'unauthorized', 403: 'forbidden', 415: 'unsupported media type' }

/** The registry's URLs: `/api/`, the archivist, discovery, and its set-up routes under `/_doppel/registry/`. */
export const REGISTRY_URLS: ServiceUrls<'registry'> = {
  name: 'registry',
  ownsPath: (path) => path.startsWith(REGISTRY_API_PREFIX) || path.startsWith(ARCHIVIST_PREFIX) || path === DISCOVERY_PATH || path.startsWith(SETUP_PREFIX),
  isSetupPath: (path) => path.startsWith(SETUP_PREFIX),
  // JSON:API where the management API and the archivist answer; the protocol's own `{"errors":[…]}` elsewhere.
  refusal: (path, status, message) =>
    path.startsWith(V2_PREFIX) || path.startsWith(ARCHIVIST_PREFIX)
      ? jsonApiErrors(status, [jsonApiError(status, REFUSAL_TITLES[status] ?? 'refused', message)])
      : errorsEnvelope(status, message),
}
