/**
 * The cloud auth service's paths, read off its table of every path under `/v1/` (`api-routes.ts`): the
 * endpoints by their field schemas and operations, the other rows by what they say of themselves. A row
 * added there appears here without an edit.
 */
import { jsonContent, ref, type Schema } from '../../../core/openapi-schema.ts'
import type { Profile } from '../../../core/profile.ts'
import { routeTemplate } from '../../../core/routing/index.ts'
import type { FieldSchema } from '../fields/index.ts'
import { ALIASES } from '../routing/aliases.ts'
import type { ApiRoute } from '../routing/api-route.ts'
import { API_ROUTES, type MountRoute } from '../routing/api-routes.ts'
import { authProfile } from '../auth-profile.ts'
import { endpointFields, type Endpoint, type Operation } from '../routing/endpoint.ts'
import { authErrorSchema, FIELD_TYPE_SCHEMAS } from './auth-schemas.ts'

export interface AuthPathOptions {
  /** Path prefix: `/v1` in doppel's document, empty in Vault's (its routes are relative to `/v1/`). */
  prefix: string
  mounts: readonly string[]
  /** Security requirement names for the management token. */
  tokenSchemes: readonly string[]
  /** The profile described: a row it does not serve is left out. */
  profile: Profile
  /** Whether bad input the real service answers with a 500 gets that 500 (the vault profile). */
  internalErrors?: boolean
}

const ERRORS: Record<string, Schema> = {
  '400': authErrorSchema('Bad request: field conversion or validation failed'),
  '403': authErrorSchema('permission denied (missing or wrong token)'),
  '405': authErrorSchema('unsupported operation'),
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
const INTERNAL_ERROR = { '500': authErrorSchema('bad input the real service answers as an internal error, as it does (vault profile)') }

/** The rows described by hand, and taking no declared body, whose bad input the real service answers with a 500. */
const ANSWERS_INTERNAL_ERRORS = /(^|\/)(login|renew-self)$/

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
        '404': authErrorSchema('No entries'),
        ...ERRORS,
      },
    }
  }
  if (ops.read && !ops.list) {
    item.get = {
      ...common,
      summary: `Read ${template}`,
      responses: { '200': { description: 'The entry', ...jsonContent(ref('AuthEnvelope')) }, '404': authErrorSchema('Not found (empty body on some paths)'), ...ERRORS },
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
            [operation === 'patch' ? 'application/merge-patch+json' : 'application/json']: { schema: bodySchema(endpointFields(endpoint, authProfile(options.profile)), params) },
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
        ...(params.length > 0 && { '404': authErrorSchema('unsupported path: a path value the route does not take') }),
        ...(operation === 'patch' && { '404': authErrorSchema('Not found'), '415': authErrorSchema('Content-Type is not application/merge-patch+json') }),
        ...ERRORS,
        ...(options.internalErrors && INTERNAL_ERROR),
      },
    }
  }
  return item
}

/** A row described by its own `describe` (login, the token self routes, `sys/auth`, Vault's document) as a path item. */
function describedItem(row: ApiRoute | MountRoute, params: string[], options: AuthPathOptions): Schema {
  const item: Schema = {}
  if (params.length > 0) item.parameters = params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }))
  if (!('describe' in row) || !row.describe) return item
  const open = row.token === 'none'
  for (const [method, { summary, body, answers, bare, empty }] of Object.entries(row.describe)) {
    const responses: Record<string, Schema> = {}
    for (const [status, description] of Object.entries(answers)) {
      const withoutBody = status === '204' || (empty && status.startsWith('2'))
      responses[status] = withoutBody ? { description } : status.startsWith('2') ? { description, ...jsonContent(bare ? { type: 'object' } : ref('AuthEnvelope')) } : authErrorSchema(description)
    }
    item[method] = {
      summary,
      ...(open ? { 'x-vault-unauthenticated': true } : { security: security(options.tokenSchemes) }),
      ...(body && { requestBody: { required: true, content: { 'application/json': { schema: bodySchema(body, []) } } } }),
      responses: {
        ...(open ? responses : { ...responses, ...ERRORS }),
        // A JSON body may also meet the vault profile's listener check, whose refusals are 500s.
        ...(options.internalErrors && (body !== undefined || ANSWERS_INTERNAL_ERRORS.test(row.path)) && INTERNAL_ERROR),
      },
    }
  }
  return item
}

/** A mount's rows under one mount: the endpoints (their deprecated names too) and `login`. */
function mountPaths(paths: Record<string, Schema>, base: string, rows: readonly MountRoute[], options: AuthPathOptions): void {
  for (const row of rows) {
    const { template, params } = routeTemplate(row)
    if (!('operations' in row)) {
      paths[`${base}/${template}`] = describedItem(row, params, options)
      continue
    }
    paths[`${base}/${template}`] = endpointItem(row, template, params, options, false)
    for (const [deprecated, current] of ALIASES) {
      if (template === current || template.startsWith(`${current}/`)) {
        const old = deprecated + template.slice(current.length)
        paths[`${base}/${old}`] = endpointItem(row, old, params, options, true)
      }
    }
  }
}

/** Every path of the auth service, read off its table under `/v1/`: each mount's rows first, then the others in the table's order. */
export function authPaths(options: AuthPathOptions): Record<string, Schema> {
  const paths: Record<string, Schema> = {}
  const prefix = options.prefix
  for (const row of API_ROUTES) {
    if (row.reads !== 'mount') continue
    for (const mount of options.mounts) mountPaths(paths, `${prefix}/${row.path.slice(0, -1)}${mount}`, row.rows, options)
  }
  for (const row of API_ROUTES) {
    if (row.reads === 'mount' || !row.describe || row.profile?.(options.profile) === false) continue
    const { template, params } = routeTemplate(row)
    paths[`${prefix}/${template}`] = describedItem(row, params, options)
  }
  return paths
}
