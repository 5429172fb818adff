import type { ModuleVersion } from '../glossary.ts'
import { registryErrors } from './registry-error.ts'
import { newId, now, type RegistryState } from '../model/registry-state.ts'
import type { VersionPatch } from './version-patch.ts'

/**
 * The version after a deprecation or revocation change, as a new record (the caller commits it).
 * Repeating a deprecation keeps its id and overwrites reason and link; undeprecating a clean version and
 * unrevoking an unrevoked one change nothing (docs/reference/registry.md §7.4). A version must be deprecated before it
 * can be revoked, and stays deprecated when unrevoked (docs/reference/registry.md §1.3).
 */
export function applyVersionPatch(state: RegistryState, version: ModuleVersion, patch: VersionPatch): ModuleVersion {
  const at = now(state)
  switch (patch.kind) {
    case 'deprecate': {
      const previous = version.deprecation
      const deprecation = previous
        ? { ...previous, reason: patch.reason, link: patch.link }
        : { id: newId(state, 'dep'), reason: patch.reason, link: patch.link, createdAt: at }
      return { ...version, deprecation, updatedAt: at }
    }
    case 'undeprecate':
      if (version.revocation) throw registryErrors.invalidAttribute('/data/attributes/deprecation/deprecated-status', 'revoked', `version ${version.version}, revoked`)
      return version.deprecation ? { ...version, deprecation: null, updatedAt: at } : version
    case 'revoke': {
      if (!version.deprecation) throw registryErrors.invalidAttribute('/data/attributes/revocation/status', 'notDeprecated', `version ${version.version}, not deprecated`)
      const createdAt = version.revocation?.createdAt ?? at
      return { ...version, revocation: { message: patch.message, link: patch.link, createdAt }, updatedAt: at }
    }
    case 'unrevoke':
      return version.revocation ? { ...version, revocation: null, updatedAt: at } : version
  }
}
