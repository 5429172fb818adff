import type { RequestContext } from '../core/glossary.ts'
import { jsonResponse } from '../core/http.ts'
import { TenantNameError } from './tenant-name.ts'

const ONE_TENANT = /^\/_doppel\/tenants\/([^/]*)$/

/**
 * `GET /_doppel/tenants` lists a server's tenants; `DELETE /_doppel/tenants/<id>` drops one with its state.
 * Only the root instance of a server with tenants has them.
 */
export function tenantsControl(request: Request, context: RequestContext, path: string): Response {
  const tenants = context.tenants
  if (tenants === undefined) {
    return jsonResponse(404, { errors: ['no tenants here: tenants live on the root instance of a server (doppel serve, --max-tenants)'] })
  }
  if (path === '/_doppel/tenants') {
    if (request.method !== 'GET') return jsonResponse(405, { errors: ['unsupported operation'] })
    return jsonResponse(200, { tenants: tenants.list(), max_tenants: tenants.maxTenants, idle_timeout_seconds: tenants.idleTimeoutMs / 1000 })
  }
  const match = ONE_TENANT.exec(path)
  if (match === null) return jsonResponse(404, { errors: [`unsupported path: ${request.method} ${path}`] })
  if (request.method !== 'DELETE') return jsonResponse(405, { errors: ['unsupported operation'] })
  try {
    const id = match[1]!
    return tenants.drop(id) ? new Response(null, { status: 204 }) : jsonResponse(404, { errors: [`no such tenant "${id}"`] })
  } catch (error) {
    if (error instanceof TenantNameError) return jsonResponse(400, { errors: [error.message] })
    throw error
  }
}
