/**
 * The registry's paths, read off its three route tables. Each table's operation names key a record of
 * descriptions, so a route added to a table without one here fails the type check.
 */
import { jsonContent, ref, type Schema } from '../../../core/openapi-schema.ts'
import { routeTemplate, type RouteRow, type RouteTable } from '../../../core/routing/index.ts'
import { ARCHIVIST_ROUTES } from '../api/archivist.ts'
import { MANAGEMENT_ROUTES } from '../api/management-api.ts'
import { READ_ROUTES } from '../api/read-api.ts'
import { DISCOVERY_PATH } from '../urls.ts'

type Operation<T> = T extends RouteTable<infer Row extends RegistryRow> ? Row['operation'] : never

type RegistryRow = RouteRow & { method: string; operation: string }

interface OperationDoc {
  summary: string
  /** Success responses. */
  responses: Record<string, Schema>
  requestBody?: Schema
  /** Query parameters the handler reads. */
  query?: string[]
  /** The operation needs no token (archivist objects, ping). */
  public?: boolean
}

const JSON_API = 'application/vnd.api+json'
const jsonApi = (description: string): Schema => ({ description, ...jsonContent(ref('JsonApiDocument'), JSON_API) })
/** A JSON:API request document; `dataRequired` lists what `data` must hold (a PATCH may send less). */
const jsonApiBody = (type: string, attributes: Schema, required: string[], dataRequired = ['type', 'attributes']): Schema => ({
  required: true,
  content: {
    [JSON_API]: {
      schema: {
        type: 'object',
        required: ['data'],
        properties: {
          data: {
            type: 'object',
            ...(dataRequired.length > 0 && { required: dataRequired }),
            properties: { type: { const: type }, attributes: { type: 'object', ...(required.length > 0 && { required }), properties: attributes } },
          },
        },
      },
    },
  },
})

const STRING = { type: 'string' }
const LINK = { type: 'string', format: 'uri' }

const MANAGEMENT: Record<Operation<typeof MANAGEMENT_ROUTES>, OperationDoc> = {
  ping: { summary: 'API ping: version headers', responses: { '200': { description: 'Empty; TFP-API-Version and X-TFE-Version headers' } }, public: true },
  listModules: {
    summary: 'List an organisation’s registry modules',
    query: ['q', 'filter[provider]', 'filter[registry_name]', 'filter[organization_name]', 'page[number]', 'page[size]'],
    responses: { '200': jsonApi('A page of modules') },
  },
  createModule: {
    summary: 'Create a private module (no VCS)',
    requestBody: jsonApiBody('registry-modules', { name: STRING, provider: STRING, 'registry-name': { enum: ['private'] }, 'no-code': { type: 'boolean' } }, ['name', 'provider']),
    responses: { '201': jsonApi('The module') },
  },
  showModule: { summary: 'Show a module', responses: { '200': jsonApi('The module') } },
  showModuleById: { summary: 'Show a module by id', responses: { '200': jsonApi('The module') } },
  createVersion: {
    summary: 'Create a module version; upload its archive to links.upload',
    requestBody: jsonApiBody('registry-module-versions', { version: STRING, 'commit-sha': STRING }, ['version']),
    responses: { '201': jsonApi('The version, pending upload') },
  },
  deleteVersion: { summary: 'Delete one version', responses: { '204': { description: 'Deleted' } } },
  deleteProvider: { summary: 'Delete a module’s provider and its versions', responses: { '204': { description: 'Deleted' } } },
  deleteModule: { summary: 'Delete a module', responses: { '204': { description: 'Deleted' } } },
  showVersion: { summary: 'Show a version', query: ['module_version'], responses: { '200': jsonApi('The version') } },
  patchVersion: {
    summary: 'Deprecate or undeprecate (deprecation) or revoke (revocation) a version',
    requestBody: jsonApiBody(
      'module-versions',
      {
        deprecation: {
          type: 'object',
          required: ['deprecated-status'],
          properties: { 'deprecated-status': { enum: ['Deprecated', 'Undeprecated'] }, reason: STRING, link: LINK },
        },
        revocation: {
          type: 'object',
          required: ['status'],
          properties: { status: { enum: ['Revoked', 'Unrevoked'] }, message: STRING, link: LINK },
        },
      },
      [],
      [],
    ),
    responses: { '200': jsonApi('The version and its deprecation (included)') },
  },
}

const READS: Record<Operation<typeof READ_ROUTES>, OperationDoc> = {
  versions: { summary: 'Registry protocol: list versions', responses: { '200': { description: 'modules[].versions[]', ...jsonContent({ type: 'object' }) } } },
  downloadLatest: { summary: 'Redirect to the latest version’s download', responses: { '302': { description: 'Location: …/<version>/download' } } },
  download: { summary: 'Download location of a version', responses: { '204': { description: 'X-Terraform-Get: the archive URL' } } },
  version: { summary: 'A version’s record, with its deprecation', responses: { '200': { description: 'The version record', ...jsonContent({ type: 'object' }) } } },
  latest: { summary: 'The latest version’s record', responses: { '200': { description: 'The version record', ...jsonContent({ type: 'object' }) } } },
}

const ARCHIVIST: Record<Operation<typeof ARCHIVIST_ROUTES>, OperationDoc> = {
  upload: {
    summary: 'Upload a version’s tar.gz archive (the object id is the credential)',
    requestBody: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/gzip' } } } },
    responses: { '200': { description: 'Stored; the version is published' } },
    public: true,
  },
  download: {
    summary: 'Download a version’s archive',
    responses: { '200': { description: 'The archive', content: { 'application/x-gzip': { schema: { type: 'string', contentMediaType: 'application/gzip' } } } } },
    public: true,
  },
}

/** Deprecated aliases share an operation: the second gets a numbered id. */
function uniqueId(ids: Set<string>, id: string): string {
  let candidate = id
  for (let n = 2; ids.has(candidate); n++) candidate = `${id}${n}`
  ids.add(candidate)
  return candidate
}

function addTable<Row extends RegistryRow>(
  paths: Record<string, Schema>,
  table: RouteTable<Row>,
  docs: Record<Row['operation'], OperationDoc>,
  errors: Record<string, Schema>,
  group: string,
  ids: Set<string>,
): void {
  // The table's trailing-slash tolerance is not a separate path.
  for (const route of table.rows) {
    const { template: path, params } = routeTemplate(route)
    const doc = docs[route.operation as Row['operation']]
    const item = (paths[path] ??= {
      ...(params.length > 0 && { parameters: params.map((name) => ({ name, in: 'path', required: true, schema: STRING })) }),
    })
    const method = route.method.toLowerCase()
    if (item[method]) continue
    item[method] = {
      operationId: uniqueId(ids, `${group}.${route.operation}`),
      summary: doc.summary,
      ...(doc.query && { parameters: doc.query.map((name) => ({ name, in: 'query', required: false, schema: STRING })) }),
      ...(doc.public ? { security: [] } : { security: [{ registryToken: [] }] }),
      ...(doc.requestBody && { requestBody: doc.requestBody }),
      responses: { ...doc.responses, ...(doc.public ? { '404': errors['404'] } : errors) },
    }
  }
}

const V2_ERRORS: Record<string, Schema> = {
  '401': { description: 'unauthorized', ...jsonContent(ref('JsonApiErrors'), JSON_API) },
  '404': { description: 'not found (also for organisations the token cannot see)', ...jsonContent(ref('JsonApiErrors'), JSON_API) },
  '415': { description: 'invalid content type (writes need application/vnd.api+json)', ...jsonContent(ref('JsonApiErrors'), JSON_API) },
  '422': { description: 'invalid attribute', ...jsonContent(ref('JsonApiErrors'), JSON_API) },
}
const V1_ERRORS: Record<string, Schema> = {
  '401': { description: 'Unauthorized', ...jsonContent(ref('RegistryV1Errors')) },
  '404': { description: 'Not Found', ...jsonContent(ref('RegistryV1Errors')) },
}

/** Every path of the registry: `/api/v2`, `/api/registry/v1`, the archivist and discovery. */
export function registryPaths(): Record<string, Schema> {
  const paths: Record<string, Schema> = {
    [DISCOVERY_PATH]: {
      get: { operationId: 'discovery', summary: 'Service discovery', security: [], responses: { '200': { description: 'Service URLs', ...jsonContent({ type: 'object' }) } } },
    },
  }
  const ids = new Set<string>()
  addTable(paths, MANAGEMENT_ROUTES, MANAGEMENT, V2_ERRORS, 'registry', ids)
  addTable(paths, READ_ROUTES, READS, V1_ERRORS, 'registryV1', ids)
  addTable(paths, ARCHIVIST_ROUTES, ARCHIVIST, V2_ERRORS, 'archivist', ids)
  return paths
}
