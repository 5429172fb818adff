/** Tenant names: what may follow `/t/` in a path. */
import { errorKind } from '../../core/doppel-error.ts'

const TENANT_NAME = /^[a-z0-9-]{1,63}$/
const PREFIX = '/t/'

/** The path prefix of a tenant's instance: `/t/<name>`. */
export function tenantBase(name: string): string {
  return PREFIX + name
}

export class TenantNameError extends errorKind('TenantNameError', 'DOPPEL_INVALID_TENANT_NAME') {}

/** Throws TenantNameError unless `name` is 1–63 of `a-z`, `0-9` and `-`. */
export function checkTenantName(name: string): string {
  if (TENANT_NAME.test(name)) return name
  const shown = name.length > 70 ? `${name.slice(0, 70)}…` : name
  throw new TenantNameError(`invalid tenant name "${shown}": use 1 to 63 characters of a-z, 0-9 and -`)
}

/**
 * Splits `/t/<name>/rest` into the tenant name and the path inside it (`/rest`, or `/` for `/t/<name>`).
 * Undefined for a path outside any tenant. The name is checked: TenantNameError for a bad one.
 */
export function splitTenantPath(pathname: string): { tenant: string; path: string } | undefined {
  if (!pathname.startsWith(PREFIX)) return undefined
  const end = pathname.indexOf('/', PREFIX.length)
  const name = end === -1 ? pathname.slice(PREFIX.length) : pathname.slice(PREFIX.length, end)
  return { tenant: checkTenantName(name), path: end === -1 ? '/' : pathname.slice(end) }
}
