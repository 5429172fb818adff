/**
 * The OpenAPI 3.1 document of the emulated services: each service describes its own paths, read off its
 * route tables (its descriptor's `openApi`), generated on every call (cheap, and never stale).
 */
import { OPENAPI_VERSION, tokenSchemes, type Schema } from '../../core/openapi-schema.ts'
import { getProfile } from '../../core/profile.ts'
import { SERVICES } from '../doppel/index.ts'

export interface OpenApiOptions {
  profile?: 'service' | 'vault'
}

/** doppel's document: every service that describes itself, tagged with its name, on the profile's mounts and headers. */
export async function openApiDocument(options: OpenApiOptions = {}): Promise<Schema> {
  const profile = getProfile(options.profile)
  const schemes = tokenSchemes(profile.tokenHeaders)
  const described = []
  for (const service of SERVICES) if (service.openApi) described.push({ name: service.name, description: await service.openApi() })
  return {
    openapi: '3.1.0',
    info: {
      title: 'doppel: cloud auth service and module registry',
      version: OPENAPI_VERSION,
      description:
        'The emulated cloud auth service (Vault’s AWS auth method, renamed) and the private module registry’s deprecation API, generated from doppel’s route tables.',
      license: { name: 'MPL-2.0', identifier: 'MPL-2.0' },
    },
    tags: described.map(({ name }) => ({ name })),
    paths: Object.assign({}, ...described.map(({ name, description }) => tag(description.paths(profile, Object.keys(schemes)), name))) as Schema,
    components: {
      schemas: Object.assign({}, ...described.map(({ description }) => description.schemas)) as Schema,
      securitySchemes: Object.assign({ ...schemes }, ...described.map(({ description }) => description.securitySchemes ?? {})) as Schema,
    },
  }
}

function tag(paths: Record<string, Schema>, name: string): Record<string, Schema> {
  for (const item of Object.values(paths)) {
    for (const [key, operation] of Object.entries(item)) {
      if (key !== 'parameters') (operation as Schema).tags = [name]
    }
  }
  return paths
}
