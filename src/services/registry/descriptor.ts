import type { ServiceDescriptor } from '../../core/service-descriptor.ts'
import { registryFaultResponse } from './api/json-api.ts'
import { REGISTRY_CONTROL_ROUTES } from './control-routes.ts'
import { registrySnapshotCodec } from './model/registry-snapshot.ts'
import { REGISTRY_API_PREFIX, DISCOVERY_PATH, REGISTRY_URLS } from './urls.ts'

/** The registry, as the emulator's router, control table, snapshot and OpenAPI document see it. */
export const REGISTRY_SERVICE: ServiceDescriptor<'registry'> = {
  name: 'registry',
  urls: REGISTRY_URLS,
  where: `the registry answers under ${REGISTRY_API_PREFIX} and ${DISCOVERY_PATH}`,
  load: async () => (await import('./registry-service.ts')).registry,
  fault: registryFaultResponse,
  controlRoutes: REGISTRY_CONTROL_ROUTES,
  codecs: [registrySnapshotCodec],
  openApi: async () => (await import('./openapi/registry-description.ts')).REGISTRY_OPENAPI,
}
