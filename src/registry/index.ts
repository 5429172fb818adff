export { registry } from './registry-service.ts'
export { registryFaultResponse } from './json-api.ts'
export { seedRegistry, loadRegistryFixture, RegistryFixtureError } from './seed-registry.ts'
export type { RegistryFixture, SeedResult } from './glossary.ts'
