import type { RequestContext } from '../../core/glossary.ts'
import { mount, noContentAnswer, ok, refused, type ControlRoute } from '../../core/routing/index.ts'
import { CONTROL_PREFIX } from '../../services/control/urls.ts'
import type { TenantDirectory, TenantsContext } from './glossary.ts'
import { TenantNameError } from './tenant-name.ts'

const NO_TENANTS = 'no tenants here: tenants live on the root instance of a server (doppel serve, --max-tenants)'

/** `GET /_doppel/tenants` and `DELETE /_doppel/tenants/:id`, answered by the root instance of a server. */
export const TENANT_ROUTES: readonly ControlRoute[] = mount(CONTROL_PREFIX, [
  {
    method: 'GET',
    path: 'tenants',
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
    path: 'tenants/:id',
    access: 'control',
    run: async ({ context, params }) => {
      const tenants = tenantsOf(context)
      if (tenants === undefined) return refused(404, NO_TENANTS)
      let dropped: boolean
      try {
        dropped = tenants.drop(params.id!)
      } catch (error) {
        if (error instanceof TenantNameError) return refused(400, error.message)
        throw error
      }
      if (!dropped) return refused(404, `no such tenant "${params.id}"`)
      // Answered once its saved file is gone too: a kill right after the answer cannot bring it back.
      await tenants.whenDropped()
      return noContentAnswer
    },
  },
])

/** The server's tenants, when the request reached the root instance of a server that has them. */
function tenantsOf(context: RequestContext): TenantDirectory | undefined {
  return (context as TenantsContext).tenants
}
