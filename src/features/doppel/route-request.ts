import type { ServiceUrls } from '../../core/routing/index.ts'
import { CLOUD_AUTH_URLS } from '../../services/cloud-auth/urls.ts'
import { CONTROL_URLS } from '../../services/control/urls.ts'
import { awsFaceOf, FAKE_CLOUD_URLS, isFakeCloudHost } from '../../services/fake-cloud/urls.ts'
import { REGISTRY_URLS } from '../../services/registry/urls.ts'

/** Which listener a request arrived on: the main one, or the fake cloud's own (`--cloud-port`). */
export type Surface = 'main' | 'cloud'

/** The services' URLs, asked in this order: the control API's `/_doppel/` last, after the services' own paths under it. */
export const SERVICE_URLS = [FAKE_CLOUD_URLS, CLOUD_AUTH_URLS, REGISTRY_URLS, CONTROL_URLS] as const

/** A service's name, as the journal keeps it. */
export type ServiceName = (typeof SERVICE_URLS)[number]['name']

/** The service whose URLs hold a path on doppel's own origins, if any. */
export function ownerOfPath(path: string): ServiceUrls<ServiceName> | undefined {
  return SERVICE_URLS.find((urls) => urls.ownsPath(path))
}

/**
 * Which service a request is journaled under and which answers it: the fake cloud by Host (its AWS names,
 * or its own listener), else the owner of the path; a service's set-up routes are the control API's to
 * answer, journaled under the service they set up.
 */
export function routeRequest(url: URL, surface: Surface): { journal: ServiceName; answer: ServiceName } | undefined {
  if (surface === 'cloud' || isFakeCloudHost(url.host)) return { journal: 'fake-cloud', answer: 'fake-cloud' }
  const owner = ownerOfPath(url.pathname)
  if (owner === undefined) return undefined
  return { journal: owner.name, answer: owner.isSetupPath?.(url.pathname) ? 'control' : owner.name }
}

/**
 * Whether faults may touch a path: anything but the control routes under `/_doppel/` (so that a fault on
 * `/*` cannot lock out the API that removes it), on either listener. The fake cloud's AWS faces under
 * `/_doppel/cloud/` are the provider, not control routes: faults meet them as they meet its host names.
 */
export function faultsApply(path: string): boolean {
  return !CONTROL_URLS.ownsPath(path) || awsFaceOf(path) !== undefined
}
