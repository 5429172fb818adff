/**
 * The auth method's endpoints, in the real service's declaration order: the first pattern that matches a
 * mount-relative path wins (docs/reference/cloud-auth.md §1.4). A mount's table (`api-routes.ts`) is
 * these and `login`.
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
import type { Endpoint } from './endpoint.ts'

export const ENDPOINTS: readonly Endpoint[] = [
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
