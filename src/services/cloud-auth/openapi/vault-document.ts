import { OPENAPI_VERSION, tokenSchemes, type Schema } from '../../../core/openapi-schema.ts'
import { getProfile } from '../../../core/profile.ts'
import { authProfile } from '../auth-profile.ts'
import { AUTH_API_PREFIX } from '../urls.ts'
import { authPaths } from './auth-paths.ts'
import { AUTH_SCHEMAS } from './auth-schemas.ts'

/**
 * Vault's own `sys/internal/specs/openapi` answer: the auth method's paths relative to `/v1`, on the
 * profile's Vault-named mount, or on `{aws_mount_path}` with `generic_mount_paths`.
 */
export function vaultOpenApiDocument(options: { genericMountPaths: boolean }): Schema {
  const profile = getProfile('vault')
  const schemes = tokenSchemes(profile.tokenHeaders)
  const mount = options.genericMountPaths ? ['{aws_mount_path}'] : [authProfile(profile).mounts.at(-1)!]
  const paths = authPaths({ prefix: '', mounts: mount, tokenSchemes: Object.keys(schemes), profile })
  if (options.genericMountPaths) {
    const parameter = { name: 'aws_mount_path', in: 'path', required: true, schema: { type: 'string', default: 'aws' } }
    for (const [path, item] of Object.entries(paths)) {
      if (path.includes('{aws_mount_path}')) item.parameters = [parameter, ...((item.parameters as Schema[] | undefined) ?? [])]
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'HashiCorp Vault API',
      description: `HTTP API that gives you full access to Vault. All API routes are prefixed with \`${AUTH_API_PREFIX}\`.`,
      version: OPENAPI_VERSION,
      license: { name: 'Mozilla Public License 2.0', url: 'https://www.mozilla.org/en-US/MPL/2.0' },
    },
    paths,
    components: { schemas: AUTH_SCHEMAS, securitySchemes: schemes },
  }
}
