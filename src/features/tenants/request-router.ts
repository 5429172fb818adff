import { Doppel, type HandleOptions } from '../doppel/index.ts'
import type { TenantOptions } from './glossary.ts'
import { TenantRegistry } from './tenant-registry.ts'

export interface RequestRouter {
  handle(request: Request, options?: HandleOptions): Promise<Response>
  /** Keeps what a request target names in use until the release is called (see `TenantRegistry.holdFor`). */
  holdFor?(target: string): (() => void) | undefined
}

/**
 * What a server hands each request to: the root instance alone, or a tenant registry in front of it
 * (given, to share one between listeners, or created from options).
 */
export function requestRouter(root: RequestRouter, tenants?: TenantRegistry | TenantOptions): RequestRouter {
  if (tenants === undefined) return root
  if (tenants instanceof TenantRegistry) return tenants
  if (!(root instanceof Doppel)) throw new TypeError('Failed to serve tenants: they are copies of a Doppel instance, and the server was given another handler')
  return new TenantRegistry(root, tenants)
}
