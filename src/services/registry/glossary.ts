/** Shared types of the module registry domain: stored records and the fixture format. */

export interface Organization {
  name: string
  createdAt: string
}

/** A non-root API token and the organisations it may act on. */
export interface AccessToken {
  token: string
  organizations: string[]
  createdAt: string
}

/** One registry module: an organisation's name + provider pair (`mod-…`). */
export interface RegistryModule {
  id: string
  organization: string
  name: string
  provider: string
  description: string
  noCode: boolean
  downloads: number
  createdAt: string
  updatedAt: string
}

type VersionStatus = 'pending' | 'ok'

export interface Deprecation {
  id: string
  reason: string
  link: string
  createdAt: string
}

export interface Revocation {
  message: string
  link: string
  createdAt: string
}

export interface ModuleInput {
  name: string
  type: string
  description: string
  default: string
  required: boolean
}

export interface ModuleOutput {
  name: string
  description: string
}

export interface ModuleResource {
  name: string
  type: string
}

export interface ModuleDependency {
  name: string
  source: string
  version: string
}

export interface ProviderDependency {
  name: string
  namespace: string
  source: string
  version: string
}

/** What the registry learnt from one directory of a module's code. */
export interface ModuleSource {
  /** `""` for the root, `modules/<name>` or `examples/<name>` otherwise. */
  path: string
  readme: string
  empty: boolean
  inputs: ModuleInput[]
  outputs: ModuleOutput[]
  dependencies: ModuleDependency[]
  providerDependencies: ProviderDependency[]
  resources: ModuleResource[]
}

export interface ModuleContents {
  root: ModuleSource
  submodules: ModuleSource[]
  examples: ModuleSource[]
}

/** One version of a registry module (`modver-…`). */
export interface ModuleVersion {
  id: string
  moduleId: string
  organization: string
  name: string
  provider: string
  version: string
  status: VersionStatus
  commitSha: string | null
  createdAt: string
  updatedAt: string
  publishedAt: string | null
  /** Secret object ids of the archivist URLs: the URL is the credential. */
  uploadObject: string
  downloadObject: string
  deprecation: Deprecation | null
  revocation: Revocation | null
  contents: ModuleContents | null
}

/** The uploaded tarball of a version, base64 so that state snapshots stay JSON. */
export interface ModuleArchive {
  versionId: string
  base64: string
}

/** Who is calling: the root token sees every organisation, other tokens only theirs. */
export interface RegistryCaller {
  root: boolean
  organizations: ReadonlySet<string>
}

export interface FixtureVersion {
  version: string
  status?: VersionStatus
  deprecation?: { reason?: string; link?: string } | null
  inputs?: { name: string; type?: string; description?: string; default?: string; required?: boolean }[]
  outputs?: { name: string; description?: string }[]
  resources?: { name: string; type: string }[]
  readme?: string
}

export interface FixtureModule {
  organization: string
  name: string
  provider: string
  description?: string
  versions?: (FixtureVersion | string)[]
}

/** Registry state to load without HTTP: organisations, tokens, modules and their versions. */
export interface RegistryFixture {
  organizations?: (string | { name: string })[]
  /** `token` omitted → one is generated from the emulator's random source. */
  tokens?: { token?: string; organizations: string[] }[]
  modules?: FixtureModule[]
}

/** What loading a fixture created, so callers learn generated tokens. */
export interface SeedResult {
  tokens: { token: string; organizations: string[] }[]
}
