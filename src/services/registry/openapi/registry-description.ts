/** The registry's part of doppel's OpenAPI document: every path, the same on every profile. */
import type { OpenApiDescription } from '../../../core/openapi-schema.ts'
import { registryPaths } from './registry-paths.ts'
import { REGISTRY_SCHEMAS } from './registry-schemas.ts'

export const REGISTRY_OPENAPI: OpenApiDescription = {
  paths: () => registryPaths(),
  securitySchemes: { registryToken: { type: 'http', scheme: 'bearer' } },
  schemas: REGISTRY_SCHEMAS,
}
