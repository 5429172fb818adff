/**
 * The OpenAPI 3.1 document of both emulated services, generated from their route tables and field
 * schemas on every call (cheap, and never stale).
 */
import { getProfile } from '../../core/profile.ts'
import { authProfile } from '../../services/cloud-auth/auth-profile.ts'
import { AUTH_API_PREFIX } from '../../services/cloud-auth/urls.ts'
import { authPaths } from './auth-paths.ts'
import { registryPaths } from './registry-paths.ts'
import { COMPONENT_SCHEMAS, type Schema } from './component-schemas.ts'

export interface OpenApiOptions {
  profile?: 'service' | 'vault'
}

const VERSION = '0.1.0'

function tokenSchemes(headers: readonly string[]): Record<string, Schema> {
  const schemes: Record<string, Schema> = {}
  for (const header of headers) schemes[schemeName(header)] = { type: 'apiKey', in: 'header', name: header }
  return schemes
}

function schemeName(header: string): string {
  return header.toLowerCase().replace(/[^a-z0-9]+(.)/g, (_, c: string) => c.toUpperCase())
}

/** doppel's document: the auth service under `/v1`, the registry, on the profile's mounts and headers. */
export function openApiDocument(options: OpenApiOptions = {}): Schema {
  const profile = getProfile(options.profile)
  const schemes = tokenSchemes(profile.tokenHeaders)
  return {
    openapi: '3.1.0',
    info: {
      title: 'doppel: cloud auth service and module registry',
      version: VERSION,
      description:
        'The emulated cloud auth service (Vault’s AWS auth method, renamed) and the private module registry’s deprecation API, generated from doppel’s route tables.',
      license: { name: 'MPL-2.0', identifier: 'MPL-2.0' },
    },
    tags: [{ name: 'cloud-auth' }, { name: 'registry' }],
    paths: {
      ...tag(authPaths({ prefix: AUTH_API_PREFIX.slice(0, -1), mounts: authProfile(profile).mounts, tokenSchemes: Object.keys(schemes), profile, internalErrors: authProfile(profile).badInputStatus === 'real' }), 'cloud-auth'),
      ...tag(registryPaths(), 'registry'),
    },
    components: {
      schemas: COMPONENT_SCHEMAS,
      securitySchemes: { ...schemes, registryToken: { type: 'http', scheme: 'bearer' } },
    },
  }
}

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
      version: VERSION,
      license: { name: 'Mozilla Public License 2.0', url: 'https://www.mozilla.org/en-US/MPL/2.0' },
    },
    paths,
    components: { schemas: COMPONENT_SCHEMAS, securitySchemes: schemes },
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
