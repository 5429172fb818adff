export type { DomainCodec } from './domain-codec.ts'
export * as shape from './shape.ts'
export { SnapshotError } from './shape.ts'
