/**
 * The auth method's paths, in the real service's declaration order: the first pattern that matches a
 * mount-relative path wins (docs/reference/cloud-auth.md §1.4).
 */
import { accessListEntry, listAccessList } from '../endpoints/access-list.ts'
import { configCertificate, listCertificates } from '../endpoints/config-certificate.ts'
import { configClient } from '../endpoints/config-client.ts'
import { configIdentity } from '../endpoints/config-identity.ts'
import { configRotateRoot } from '../endpoints/config-rotate-root.ts'
import { configSts, listSts } from '../endpoints/config-sts.ts'
import { configTidyAccessList, configTidyDenyList } from '../endpoints/config-tidy.ts'
import { denyListEntry, listDenyList } from '../endpoints/deny-list.ts'
import { listRole, listRolesPlural, role } from '../endpoints/role.ts'
import { roleTag } from '../endpoints/role-tag.ts'
import { tidyAccessListEndpoint, tidyDenyListEndpoint } from '../endpoints/tidy.ts'
import { currentPath } from './aliases.ts'
import type { Endpoint } from './endpoint.ts'

export const ROUTES: readonly Endpoint[] = [
  listRole,
  listRolesPlural,
  role,
  roleTag,
  configClient,
  configCertificate,
  configIdentity,
  configRotateRoot,
  configSts,
  listSts,
  configTidyDenyList,
  configTidyAccessList,
  listCertificates,
  listDenyList,
  denyListEntry,
  tidyDenyListEndpoint,
  listAccessList,
  accessListEntry,
  tidyAccessListEndpoint,
]

export interface RouteMatch {
  endpoint: Endpoint
  params: Record<string, string>
}

/** The endpoint for a mount-relative path (deprecated names included), or undefined. */
export function matchRoute(path: string): RouteMatch | undefined {
  const current = currentPath(path)
  for (const endpoint of ROUTES) {
    const match = endpoint.pattern.exec(current)
    if (match) return { endpoint, params: ownCopy(match.groups) }
  }
  return undefined
}

/** A plain object of the named groups: spreading `groups` (a null-prototype object) is V8's slow path. */
function ownCopy(groups: Record<string, string> | undefined): Record<string, string> {
  const params: Record<string, string> = {}
  for (const name in groups) params[name] = groups[name]!
  return params
}
