/** The auth service's part of doppel's OpenAPI document: its paths under `/v1`, on the profile's mounts. */
import type { OpenApiDescription } from '../../../core/openapi-schema.ts'
import { authProfile } from '../auth-profile.ts'
import { AUTH_API_PREFIX } from '../urls.ts'
import { authPaths } from './auth-paths.ts'
import { AUTH_SCHEMAS } from './auth-schemas.ts'

export const AUTH_OPENAPI: OpenApiDescription = {
  paths: (profile, tokenSchemes) =>
    authPaths({ prefix: AUTH_API_PREFIX.slice(0, -1), mounts: authProfile(profile).mounts, tokenSchemes, profile, internalErrors: authProfile(profile).badInputStatus === 'real' }),
  schemas: AUTH_SCHEMAS,
}
