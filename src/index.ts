/**
 * The emulator in process: `createDoppel`, its seed helpers, journal, faults and snapshots, and the HTTP
 * server. Guides: docs/in-process.md, docs/server.md, docs/journal.md.
 *
 * @module doppel
 */
export { createDoppel, Doppel, DroppedConnection, type DoppelOptions, type HandleOptions, type Surface } from './features/doppel/index.ts'
export type { DoppelFixture, FixtureSource, FixtureSummary } from './features/fixtures/index.ts'
/** The parts of a fixture (`FixtureDocument.Role`, `FixtureDocument.Module`…), generated from its schema. */
export type { FixtureDocument } from './features/fixtures/index.ts'
export type {
  AssumedRoleCredentials,
  AwsCredentials,
  CallerIdentity,
  DescribedInstance,
  HttpTokens,
  IamEntity,
  IdentityFormat,
  Instance,
  InstanceInput,
  InstanceMetadataTags,
  InstanceState,
  MetadataOptions,
  PolicyDocument,
  Principal,
  PrincipalInput,
} from './services/fake-cloud/index.ts'
export { SeedRefusedError, type AuthSeeds, type RegistrySeeds, type VersionAddress } from './features/doppel/index.ts'
export { Emulator, type EmulatorOptions } from './core/emulator.ts'
export { Clock, type ClockOptions } from './core/clock.ts'
export { Random } from './core/random.ts'
export { KeyedCollection, Store, type CollectionOptions } from './core/store.ts'
export type { Journal, JournalEntry, JournalRequest, JournalResponse } from './core/journal.ts'
export { JournalVerifyError, type JournalMatch } from './core/journal-match.ts'
export type { Explanation } from './core/explanation.ts'
export type { Fault, FaultInput, Faults } from './core/faults.ts'
export { SERVICE_PROFILE, VAULT_PROFILE, type Profile } from './core/profile.ts'
export { authProfile, type AuthProfile } from './services/cloud-auth/auth-profile.ts'
export type { JsonLimits } from './services/cloud-auth/index.ts'
export type { CloudAuthOptions } from './services/cloud-auth/index.ts'
export type { CloudListeners, CloudSetup, FakeCloudApi, FakeCloudOptions, ProviderCalls } from './services/fake-cloud/index.ts'
export type { RequestContext, Service } from './core/glossary.ts'
export { createDoppelServer, listen, type RunningServer, type ServerOptions } from './faces/server/index.ts'
export { startDoppelServer, type DoppelServer, type DoppelServerOptions } from './faces/server/index.ts'
export { StartupError } from './faces/server/index.ts'
export { createCertificateAuthority, issueServerCertificate, type IssuedServerCertificate, type PemPair } from './faces/server/index.ts'
export { SnapshotError } from './core/snapshot/index.ts'
export { DoppelError, isDoppelError, type DoppelErrorCode } from './core/doppel-error.ts'
export { ERROR_CODES } from './cli/all-error-codes.ts'
export type { DoppelSnapshot } from './features/snapshot/index.ts'
export { TenantRegistry, type TenantOptions, type TenantSummary } from './features/tenants/index.ts'
