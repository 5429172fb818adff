import type { ServiceDescriptor } from '../../core/service-descriptor.ts'
import { CLOUD_AUTH_SERVICE } from '../../services/cloud-auth/descriptor.ts'
import { CONTROL_SERVICE } from '../../services/control/descriptor.ts'
import { FAKE_CLOUD_SERVICE } from '../../services/fake-cloud/descriptor.ts'
import { REGISTRY_SERVICE } from '../../services/registry/descriptor.ts'

/**
 * Every service, written once: the router asks their URLs in this order (the control API's `/_doppel/`
 * last, after the services' own paths under it), the control table holds their set-up rows, the snapshot
 * document their codecs and the OpenAPI document their descriptions, each in this order.
 */
export const SERVICES = [CLOUD_AUTH_SERVICE, FAKE_CLOUD_SERVICE, REGISTRY_SERVICE, CONTROL_SERVICE] as const

/** A service's name, as the journal keeps it. */
export type ServiceName = (typeof SERVICES)[number]['name']

/** Each service's own options, under the name its descriptor declares (`cloudAuth`, `fakeCloud`). */
export type ServicesOptions = {
  [Service in (typeof SERVICES)[number] as Service extends ServiceDescriptor<string, unknown, infer Key> ? Key : never]?: Service extends ServiceDescriptor<string, infer Options, string> ? Options : never
}
