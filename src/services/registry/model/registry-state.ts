import type { Emulator } from '../../../core/emulator.ts'
import { ALPHANUMERIC } from '../../../core/random.ts'
import type { KeyedCollection } from '../../../core/store.ts'
import type { AccessToken, ModuleArchive, ModuleVersion, Organization, RegistryModule } from '../glossary.ts'
import { compareSemver } from './semver.ts'

/** The registry's collections in one emulator instance; every lookup goes through a keyed index. */
export interface RegistryState {
  emulator: Emulator
  organizations: KeyedCollection<Organization>
  tokens: KeyedCollection<AccessToken>
  modules: KeyedCollection<RegistryModule>
  versions: KeyedCollection<ModuleVersion>
  archives: KeyedCollection<ModuleArchive>
}

/** Index value for coordinates; JSON so that no name can collide with another through a separator. */
export function coordinates(...parts: string[]): string {
  return JSON.stringify(parts)
}

export const REGISTRY_DOMAIN = 'registry'

/** The registry state of an emulator instance, created on first use. */
export function registryState(emulator: Emulator): RegistryState {
  return emulator.domain(REGISTRY_DOMAIN, () => ({
    emulator,
    organizations: emulator.store.collection<Organization>('registry.organizations', { key: (o) => o.name }),
    tokens: emulator.store.collection<AccessToken>('registry.tokens', { key: (t) => t.token }),
    modules: emulator.store.collection<RegistryModule>('registry.modules', {
      key: (m) => m.id,
      indexes: {
        coordinates: (m) => coordinates(m.organization, m.name, m.provider),
        name: (m) => coordinates(m.organization, m.name),
        organization: (m) => m.organization,
      },
    }),
    versions: emulator.store.collection<ModuleVersion>('registry.versions', {
      key: (v) => v.id,
      indexes: {
        coordinates: (v) => coordinates(v.organization, v.name, v.provider, v.version),
        module: (v) => v.moduleId,
        upload: (v) => v.uploadObject,
        download: (v) => v.downloadObject,
      },
    }),
    archives: emulator.store.collection<ModuleArchive>('registry.archives', { key: (a) => a.versionId }),
  }))
}

/** The module at org/name/provider, by index. */
export function findModule(state: RegistryState, organization: string, name: string, provider: string): RegistryModule | undefined {
  return state.modules.findOneBy('coordinates', coordinates(organization, name, provider))
}

/** The version at org/name/provider/version, by index. */
export function findVersion(
  state: RegistryState,
  organization: string,
  name: string,
  provider: string,
  version: string,
): ModuleVersion | undefined {
  return state.versions.findOneBy('coordinates', coordinates(organization, name, provider, version))
}

/** The versions of one module, oldest semver first. */
export function versionsOf(state: RegistryState, moduleId: string): ModuleVersion[] {
  return state.versions.findBy('module', moduleId).sort((a, b) => compareSemver(a.version, b.version))
}

/** An id of the documented form: prefix + 16 alphanumerics from the seeded random source. */
export function newId(state: RegistryState, prefix: string): string {
  return `${prefix}-${state.emulator.random.string(16, ALPHANUMERIC)}`
}

/** A secret archivist object id: whoever holds the URL may use it. */
export function newObjectId(state: RegistryState): string {
  return state.emulator.random.bytes(36).toString('base64url')
}

/** The emulator's time as the API prints it: ISO 8601 with milliseconds, UTC. */
export function now(state: RegistryState): string {
  return state.emulator.clock.now().toISOString()
}

/** Records an organisation if it is new. */
export function ensureOrganization(state: RegistryState, name: string): void {
  if (!state.organizations.has(name)) state.organizations.set({ name, createdAt: now(state) })
}
