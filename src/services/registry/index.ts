export { registry } from './registry-service.ts'
export { registryFaultResponse } from './api/json-api.ts'
export { seedRegistry, loadRegistryFixture, RegistryFixtureError } from './model/seed-registry.ts'
export type { RegistryFixture, SeedResult } from './glossary.ts'
