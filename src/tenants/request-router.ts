import type { Doppel, HandleOptions } from '../doppel.ts'
import type { TenantOptions } from './glossary.ts'
import { TenantRegistry } from './tenant-registry.ts'

export interface RequestRouter {
  handle(request: Request, options?: HandleOptions): Promise<Response>
}

/**
 * What a server hands each request to: the root instance alone, or a tenant registry in front of it
 * (given, to share one between listeners, or created from options).
 */
export function requestRouter(root: Doppel, tenants?: TenantRegistry | TenantOptions): RequestRouter {
  if (tenants === undefined) return root
  return tenants instanceof TenantRegistry ? tenants : new TenantRegistry(root, tenants)
}
