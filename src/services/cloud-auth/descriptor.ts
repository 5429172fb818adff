import type { ServiceDescriptor } from '../../core/service-descriptor.ts'
import { authFaultResponse } from './envelope.ts'
import { checkCloudAuthOptions, type CloudAuthOptions } from './options.ts'
import { authSnapshotCodec } from './state-snapshot.ts'
import { tokenSnapshotCodec } from './tokens/token-snapshot.ts'
import { AUTH_API_PREFIX, CLOUD_AUTH_URLS } from './urls.ts'

/** The auth method, as the emulator's router, snapshot and OpenAPI document see it. */
export const CLOUD_AUTH_SERVICE: ServiceDescriptor<'cloud-auth', CloudAuthOptions, 'cloudAuth'> = {
  name: 'cloud-auth',
  urls: CLOUD_AUTH_URLS,
  where: `the auth service answers under ${AUTH_API_PREFIX}`,
  load: async () => (await import('./cloud-auth-service.ts')).cloudAuth,
  fault: authFaultResponse,
  controlRoutes: [],
  codecs: [authSnapshotCodec, tokenSnapshotCodec],
  openApi: async () => (await import('./openapi/auth-description.ts')).AUTH_OPENAPI,
  options: { key: 'cloudAuth', deprecatedKeys: ['allowSha1', 'env'], check: checkCloudAuthOptions },
}
