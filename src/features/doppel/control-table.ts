import { RouteTable } from '../../core/routing/index.ts'
import type { ControlTable } from '../../services/control/index.ts'
import { DASHBOARD_ROUTES } from '../dashboard/index.ts'
import { FIXTURE_ROUTES } from '../fixtures/control-routes.ts'
import { OPENAPI_ROUTES } from '../openapi/control-routes.ts'
import { SNAPSHOT_ROUTES } from '../snapshot/control-routes.ts'
import { TENANT_ROUTES } from '../tenants/control-routes.ts'
import { SERVICES } from './services.ts'

/**
 * Every route under `/_doppel/`, put together here, above the services and features that own them: the
 * services' (the control API's own, the others' set-up routes, from their descriptors), the features'. The router (HTTP server, MSW,
 * `doppel.fetch`), the in-process calls and the server's guard all read this one table. The rows' modules
 * are light; what their handlers need (the registry, the snapshot codecs, the fixture loader, the
 * OpenAPI generator) is imported on first use.
 */
export const CONTROL_TABLE: ControlTable = new RouteTable([
  ...SERVICES.flatMap((service) => service.controlRoutes),
  ...SNAPSHOT_ROUTES,
  ...FIXTURE_ROUTES,
  ...DASHBOARD_ROUTES,
  ...TENANT_ROUTES,
  ...OPENAPI_ROUTES,
])
