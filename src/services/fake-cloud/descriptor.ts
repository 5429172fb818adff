import type { ServiceDescriptor } from '../../core/service-descriptor.ts'
import { cloudSnapshotCodec } from './cloud-snapshot.ts'
import { CLOUD_CONTROL_ROUTES } from './control-routes.ts'
import { cloudFaultResponse } from './query-xml.ts'
import { checkFakeCloudOptions, type FakeCloudOptions } from './options.ts'
import { FAKE_CLOUD_URLS } from './urls.ts'

/**
 * The fake cloud, as the emulator's router, control table and snapshot see it. Its HTTP APIs load on the
 * first request; `doppel.cloud` (the direct face, fake-cloud-api.ts) loads at start, as it answers at once.
 */
export const FAKE_CLOUD_SERVICE: ServiceDescriptor<'fake-cloud', FakeCloudOptions, 'fakeCloud'> = {
  name: 'fake-cloud',
  urls: FAKE_CLOUD_URLS,
  load: async () => (await import('./fake-cloud-service.ts')).fakeCloud,
  fault: cloudFaultResponse,
  controlRoutes: CLOUD_CONTROL_ROUTES,
  codecs: [cloudSnapshotCodec],
  options: { key: 'fakeCloud', deprecatedKeys: ['imdsListenerLimit'], check: checkFakeCloudOptions },
}
