import { mount, ok, type ControlRoute } from '../../core/routing/index.ts'
import { CONTROL_PREFIX } from '../../services/control/urls.ts'

/** `GET /_doppel/openapi.json`; the generator is imported on first use. */
export const OPENAPI_ROUTES: readonly ControlRoute[] = mount(CONTROL_PREFIX, [
  {
    method: 'GET',
    path: 'openapi.json',
    access: 'control',
    run: async (call) => {
      const { openApiDocument } = await import('./document.ts')
      return ok(await openApiDocument({ profile: call.context.profile.name }))
    },
  },
])
