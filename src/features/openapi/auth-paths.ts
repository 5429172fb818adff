/**
 * The cloud auth service's paths, read off its route table, field schemas, login schema, token self
 * routes and `sys/auth`: a route added there appears here without an edit.
 */
import { routeTemplate } from '../../core/routing/index.ts'
import type { FieldSchema } from '../../services/cloud-auth/fields/index.ts'
import { LOGIN_SCHEMA } from '../../services/cloud-auth/login/login-input.ts'
import { TOKEN_MOUNT } from '../../services/cloud-auth/mounts/mount-table.ts'
import { ALIASES } from '../../services/cloud-auth/routing/aliases.ts'
import type { Endpoint, Operation } from '../../services/cloud-auth/routing/endpoint.ts'
import { ROUTES } from '../../services/cloud-auth/routing/auth-routes.ts'
import { SELF_ROUTES } from '../../services/cloud-auth/tokens/self-routes.ts'
import { authError, FIELD_TYPE_SCHEMAS, jsonContent, ref, type Schema } from './component-schemas.ts'

export interface AuthPathOptions {
  /** Path prefix: `/v1` in doppel's document, empty in Vault's (its routes are relative to `/v1/`). */
  prefix: string
  mounts: readonly string[]
  /** Security requirement names for the management token. */
  tokenSchemes: readonly string[]
  /** Whether bad input the real service answers with a 500 gets that 500 (the vault profile). */
  internalErrors?: boolean
}

const ERRORS: Record<string, Schema> = {
  '400': authError('Bad request: field conversion or validation failed'),
  '403': authError('permission denied (missing or wrong token)'),
  '405': authError('unsupported operation'),
}

const HTTP_METHOD: Record<Exclude<Operation, 'list' | 'create'>, string> = {
  read: 'get',
  update: 'post',
  delete: 'delete',
  patch: 'patch',
}

function bodySchema(fields: FieldSchema, skip: readonly string[]): Schema {
  const properties: Record<string, Schema> = {}
  for (const [name, type] of Object.entries(fields)) if (!skip.includes(name)) properties[name] = FIELD_TYPE_SCHEMAS[type]
  return { type: 'object', properties, additionalProperties: true }
}

/** The 500 a write, the login or renew-self answers where the real service does (docs/limits-and-differences.md). */
const INTERNAL_ERROR = { '500': authError('bad input the real service answers as an internal error, as it does (vault profile)') }

function pathParameters(params: string[]): Schema[] {
  return params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' }, description: `matches the route's ${name} segment` }))
}

function security(schemes: readonly string[]): Schema[] {
  return schemes.map((name) => ({ [name]: [] }))
}

/** One route-table endpoint as a path item. */
function endpointItem(endpoint: Endpoint, template: string, params: string[], options: AuthPathOptions, deprecated: boolean): Schema {
  const item: Schema = {}
  const parameters = pathParameters(params)
  if (parameters.length > 0) item.parameters = parameters
  const ops = endpoint.operations
  const common = { security: security(options.tokenSchemes), ...(deprecated && { deprecated: true }) }
  const tidy = template.startsWith('tidy/')
  if (ops.list) {
    item.get = {
      ...common,
      summary: `List ${template.replace(/\/$/, '')}`,
      parameters: [{ name: 'list', in: 'query', required: !ops.read, schema: { type: 'string', enum: ['true'] }, description: 'or send the LIST verb' }],
      responses: {
        '200': { description: 'The keys', ...jsonContent({ allOf: [ref('AuthEnvelope'), ref('ListData')] }) },
        '404': authError('No entries'),
        ...ERRORS,
      },
    }
  }
  if (ops.read && !ops.list) {
    item.get = {
      ...common,
      summary: `Read ${template}`,
      responses: { '200': { description: 'The entry', ...jsonContent(ref('AuthEnvelope')) }, '404': authError('Not found (empty body on some paths)'), ...ERRORS },
    }
  }
  for (const operation of ['update', 'patch', 'delete'] as const) {
    if (!ops[operation] && !(operation === 'update' && ops.create)) continue
    const method = HTTP_METHOD[operation]
    const writes = operation !== 'delete'
    item[method] = {
      ...common,
      summary: `${operation === 'update' ? (ops.create ? 'Create or update' : 'Update') : operation === 'patch' ? 'Patch' : 'Delete'} ${template}`,
      ...(ops.create && operation === 'update' && { 'x-vault-create-supported': true }),
      ...(writes && {
        requestBody: {
          required: false,
          content: {
            [operation === 'patch' ? 'application/merge-patch+json' : 'application/json']: { schema: bodySchema(endpoint.fields, params) },
          },
        },
      }),
      responses: {
        ...(tidy
          ? { '202': { description: 'Tidy finished (the real service runs it in the background)', ...jsonContent(ref('AuthEnvelope')) } }
          : {
              '200': { description: 'Done, with data or warnings', ...jsonContent(ref('AuthEnvelope')) },
              '204': { description: 'Done' },
            }),
        ...(params.length > 0 && { '404': authError('unsupported path: a path value the route does not take') }),
        ...(operation === 'patch' && { '404': authError('Not found'), '415': authError('Content-Type is not application/merge-patch+json') }),
        ...ERRORS,
        ...(options.internalErrors && INTERNAL_ERROR),
      },
    }
  }
  return item
}

/** Every path of the auth service, per mount. */
export function authPaths(options: AuthPathOptions): Record<string, Schema> {
  const paths: Record<string, Schema> = {}
  const prefix = options.prefix
  for (const mount of options.mounts) {
    const base = `${prefix}/auth/${mount}`
    for (const endpoint of ROUTES.rows) {
      const { template, params } = routeTemplate(endpoint)
      paths[`${base}/${template}`] = endpointItem(endpoint, template, params, options, false)
      for (const [deprecated, current] of ALIASES) {
        if (template === current || template.startsWith(`${current}/`)) {
          const old = deprecated + template.slice(current.length)
          paths[`${base}/${old}`] = endpointItem(endpoint, old, params, options, true)
        }
      }
    }
    paths[`${base}/login`] = {
      post: {
        summary: 'Log in with an ec2 identity document (pkcs7, or identity + signature) or a signed iam GetCallerIdentity',
        'x-vault-unauthenticated': true,
        requestBody: { required: true, content: { 'application/json': { schema: bodySchema(LOGIN_SCHEMA, []) } } },
        responses: {
          '200': { description: 'A token in `auth`', ...jsonContent(ref('AuthEnvelope')) },
          '400': authError('Login refused: the reason'),
          '403': authError('Login refused: permission denied'),
          '405': authError('unsupported operation'),
          ...(options.internalErrors && INTERNAL_ERROR),
        },
      },
    }
  }
  for (const route of SELF_ROUTES.rows) {
    const name = route.path
    const item: Schema = {}
    for (const method of route.methods) {
      if (method === 'PUT') continue
      item[method.toLowerCase()] = {
        summary: `${name} of the calling token`,
        security: security(options.tokenSchemes),
        responses: {
          '200': { description: 'The token', ...jsonContent(ref('AuthEnvelope')) },
          '204': { description: 'Done' },
          ...ERRORS,
          ...(options.internalErrors && name === 'renew-self' && INTERNAL_ERROR),
        },
      }
    }
    paths[`${prefix}/auth/${TOKEN_MOUNT}/${name}`] = item
  }
  paths[`${prefix}/sys/auth`] = {
    get: {
      summary: 'List the enabled auth mounts',
      security: security(options.tokenSchemes),
      responses: { '200': { description: 'Mounts by path', ...jsonContent(ref('AuthEnvelope')) }, ...ERRORS },
    },
  }
  paths[`${prefix}/sys/auth/{path}`] = {
    parameters: [{ name: 'path', in: 'path', required: true, schema: { type: 'string' } }],
    post: {
      summary: 'Enable the auth method (type aws) at a path',
      security: security(options.tokenSchemes),
      requestBody: { required: true, content: { 'application/json': { schema: bodySchema({ type: 'string', description: 'string' }, []) } } },
      responses: { '204': { description: 'Enabled' }, ...ERRORS },
    },
    delete: { summary: 'Disable a mount', security: security(options.tokenSchemes), responses: { '204': { description: 'Disabled' }, ...ERRORS } },
  }
  return paths
}
