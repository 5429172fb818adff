import { errorsEnvelope } from '../../core/routing/index.ts'
import type { ServiceDescriptor } from '../../core/service-descriptor.ts'
import type { ControlHost } from './call-control.ts'
import { CONTROL_ROUTES } from './control-routes.ts'
import { CONTROL_PREFIX, CONTROL_URLS } from './urls.ts'

/**
 * The control API, as the emulator's router and control table see it. It answers over the table the
 * emulator carries (a `Doppel`: the table is put together on the features floor from every descriptor's rows).
 */
export const CONTROL_SERVICE: ServiceDescriptor<'control'> = {
  name: 'control',
  urls: CONTROL_URLS,
  where: `the control API answers under ${CONTROL_PREFIX}`,
  load: async () => {
    const { control } = await import('./control-service.ts')
    return (request, context) => control(request, context, (context.emulator as ControlHost).controlTable)
  },
  // Never asked: faults do not apply to the control routes.
  fault: (status) => errorsEnvelope(status, `injected fault ${status}`),
  controlRoutes: CONTROL_ROUTES,
  codecs: [],
}
