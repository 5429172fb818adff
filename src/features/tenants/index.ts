export type { TenantDirectory, TenantOptions, TenantSummary, TenantsContext } from './glossary.ts'
export { checkTenantName, splitTenantPath, TenantNameError } from './tenant-name.ts'
export { TenantRegistry } from './tenant-registry.ts'
export { requestRouter, type RequestRouter } from './request-router.ts'
