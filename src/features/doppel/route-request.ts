/**
 * The one access decision: from the listener a request arrived on, its Host and its target, which service
 * owns it (the journal's name), which answers it, and the rule the server's guard applies beyond loopback.
 * The router (`Doppel.handle`), the server's guard and the journal all ask `classifyRequest`.
 */
import type { ServiceUrls } from '../../core/routing/index.ts'
import { CONTROL_URLS, isControlTarget } from '../../services/control/urls.ts'
import { AWS_FACES, awsFaceOf, cloudFaceOf, FAKE_CLOUD_URLS, isFakeCloudHost, scopeService, type AwsFace } from '../../services/fake-cloud/urls.ts'
import { splitTenantPath } from '../tenants/index.ts'
import { SERVICES, type ServiceName } from './services.ts'

/** Which listener a request arrived on: the main one, or the fake cloud's own (`--cloud-port`). */
export type Surface = 'main' | 'cloud'

/** The service whose URLs hold a path on doppel's own origins, if any (asked in `SERVICES`' order). */
export function ownerOfPath(path: string): ServiceUrls<ServiceName> | undefined {
  return SERVICES.find((service) => service.urls.ownsPath(path))?.urls
}

/**
 * Who may reach a request beyond loopback. `callers`: the owner checks its callers itself (the services'
 * tokens, SigV4 at STS, IAM and EC2), so the guard lets it through. `control`: the control API's rule, on
 * loopback anyone, beyond it a management token unless the control table opens the route; the metadata
 * service is here on every listener and host, since it checks no caller (`fake-cloud/urls.ts`).
 */
type Access = 'callers' | 'control'

export interface Classification {
  /** The service it is journaled under; undefined when none owns it (a 404). */
  journal: ServiceName | undefined
  /** The service that answers it: a service's set-up paths are the control API's to answer. */
  answer: ServiceName | undefined
  access: Access
  /** The fake cloud's face it reaches, if the fake cloud answers. */
  face?: AwsFace
  /** The path the owner routes on: dot segments folded, a tenant's prefix taken off; no query. */
  path: string
}

export interface RequestTarget {
  listener: Surface
  /** The URL the router reads: built from the scheme, the `Host` and the raw target, as the node adapter builds it. */
  url: Pick<URL, 'host' | 'hostname' | 'pathname' | 'search'>
  /** The request's Authorization header (read only where the fake cloud would read it). */
  authorization(): string | undefined
  /** Whether `/t/<name>/` prefixes are tenants' (the server in front of a tenant registry); the router sees them taken off. */
  tenants?: boolean
}

/**
 * Classifies a request: the fake cloud by its listener or an AWS host name, then the owner of the path;
 * within the fake cloud, its face decides (`cloudFaceOf`, the one its router takes).
 */
export function classifyRequest({ listener, url, authorization, tenants = false }: RequestTarget): Classification {
  const path = tenants ? tenantPath(url.pathname) : url.pathname
  if (listener === 'cloud' || isFakeCloudHost(url.host)) {
    const face = cloudFaceOf(url.hostname.toLowerCase(), path, () => scopeService(authorization(), url.search))
    return cloudClassification(face, path, 'fake-cloud')
  }
  const owner = ownerOfPath(path)
  // A path no one owns is a 404; the control API's door (`/_doppel`), a tenant's included, stays guarded as the control API is.
  if (owner === undefined) return { journal: undefined, answer: undefined, access: isControlTarget(tenantPath(path)) ? 'control' : 'callers', path }
  if (owner === FAKE_CLOUD_URLS) {
    // Its AWS faces on doppel's own listeners; the set-up paths beside them are the control API's to answer.
    const face = awsFaceOf(path)
    return cloudClassification(face, path, face === undefined ? 'control' : 'fake-cloud')
  }
  const answer = owner.isSetupPath?.(path) ? 'control' : owner.name
  return { journal: owner.name, answer, access: answer === 'control' ? 'control' : 'callers', path }
}

function cloudClassification(face: AwsFace | undefined, path: string, answer: ServiceName): Classification {
  const access: Access = answer === 'control' || (face !== undefined && !AWS_FACES[face].checksCallers) ? 'control' : 'callers'
  return { journal: 'fake-cloud', answer, access, ...(face && { face }), path }
}

/** The path a tenant's instance routes on (the root's path when it names none, or a name the registry refuses). */
function tenantPath(pathname: string): string {
  try {
    return splitTenantPath(pathname)?.path ?? pathname
  } catch {
    return pathname
  }
}

/**
 * Whether faults may touch a path: anything but the control routes under `/_doppel/` (so that a fault on
 * `/*` cannot lock out the API that removes it), on either listener. The fake cloud's AWS faces under
 * `/_doppel/cloud/` are the provider, not control routes: faults meet them as they meet its host names.
 */
export function faultsApply(path: string): boolean {
  return !CONTROL_URLS.ownsPath(path) || awsFaceOf(path) !== undefined
}
