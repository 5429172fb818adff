/** The `Doppel` class, the one list of services, the one access decision and the one control table. */
export { createDoppel, Doppel, DroppedConnection, type Surface, type DoppelOptions, type HandleOptions } from './doppel.ts'
export { classifyRequest, ownerOfPath, type Classification } from './route-request.ts'
export { CONTROL_TABLE } from './control-table.ts'
export { SERVICES } from './services.ts'
export { SeedRefusedError, type AuthSeeds, type RegistrySeeds, type VersionAddress } from './seed-api.ts'
