import type { RequestContext } from '../../core/glossary.ts'
import { noContent, ok, refused, type ControlRoute } from '../../core/routing/index.ts'
import type { TenantDirectory, TenantsContext } from './glossary.ts'

const NO_TENANTS = 'no tenants here: tenants live on the root instance of a server (doppel serve, --max-tenants)'

/** `GET /_doppel/tenants` and `DELETE /_doppel/tenants/:id`, answered by the root instance of a server. */
export const TENANT_ROUTES: readonly ControlRoute[] = [
  {
    method: 'GET',
    path: '/_doppel/tenants',
    access: 'control',
    run: ({ context }) => {
      const tenants = tenantsOf(context)
      return tenants === undefined
        ? refused(404, NO_TENANTS)
        : ok({ tenants: tenants.list(), max_tenants: tenants.maxTenants, idle_timeout_seconds: tenants.idleTimeoutMs / 1000 })
    },
  },
  {
    method: 'DELETE',
    path: '/_doppel/tenants/:id',
    access: 'control',
    run: ({ context, params }) => {
      const tenants = tenantsOf(context)
      if (tenants === undefined) return refused(404, NO_TENANTS)
      return tenants.drop(params.id!) ? noContent : refused(404, `no such tenant "${params.id}"`)
    },
  },
]

/** The server's tenants, when the request reached the root instance of a server that has them. */
function tenantsOf(context: RequestContext): TenantDirectory | undefined {
  return (context as TenantsContext).tenants
}
