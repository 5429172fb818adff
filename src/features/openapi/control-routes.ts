import { ok, type ControlRoute } from '../../core/routing/index.ts'

/** `GET /_doppel/openapi.json`; the generator is imported on first use. */
export const OPENAPI_ROUTES: readonly ControlRoute[] = [
  {
    method: 'GET',
    path: '/_doppel/openapi.json',
    access: 'control',
    run: async (call) => {
      const { openApiDocument } = await import('./document.ts')
      return ok(openApiDocument({ profile: call.context.profile.name }))
    },
  },
]
