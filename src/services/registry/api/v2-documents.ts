import type { ModuleVersion, RegistryModule } from '../glossary.ts'
import { linkOrigin, linkPath } from './links.ts'
import { versionsOf, type RegistryState } from '../model/registry-state.ts'
import { V2_PREFIX } from '../urls.ts'

/** The `registry-modules` resource of docs/reference/registry.md §3.1 / docs/reference/registry.md §3.4. */
export function moduleResource(state: RegistryState, module: RegistryModule): Record<string, unknown> {
  const versions = versionsOf(state, module.id)
  const org = module.organization
  return {
    id: module.id,
    type: 'registry-modules',
    attributes: {
      name: module.name,
      namespace: org,
      provider: module.provider,
      'registry-name': 'private',
      status: versions.some((v) => v.status === 'ok') ? 'setup_complete' : 'pending',
      'version-statuses': versions.map((v) => ({ version: v.version, status: v.status })),
      'version-tags': [],
      'revoked-versions': versions.filter((v) => v.revocation).map((v) => v.version),
      'no-code': module.noCode,
      'publishing-mechanism': 'non_vcs',
      'created-at': module.createdAt,
      'updated-at': module.updatedAt,
      permissions: { 'can-delete': true, 'can-resync': true, 'can-retry': true },
    },
    relationships: {
      organization: { data: { id: org, type: 'organizations' } },
      'tag-bindings': { links: { related: linkPath(state, `${V2_PREFIX}registry-modules/${module.id}/tag-bindings`) } },
    },
    links: { self: linkPath(state, `${V2_PREFIX}organizations/${org}/registry-modules/private/${org}/${module.name}/${module.provider}`) },
  }
}

/** The absolute archivist URL a version's tarball is uploaded to; the URL itself is the credential. */
function uploadUrl(origin: string, version: ModuleVersion): string {
  return `${origin}/_archivist/v1/object/${version.uploadObject}`
}

/** The `registry-module-versions` resource of docs/reference/registry.md §3.2 / docs/reference/registry.md §3.4. */
export function versionResource(state: RegistryState, url: URL, version: ModuleVersion): Record<string, unknown> {
  return {
    id: version.id,
    type: 'registry-module-versions',
    attributes: {
      source: 'tfe-api',
      status: version.status,
      version: version.version,
      'commit-sha': version.commitSha,
      branch: null,
      'created-at': version.createdAt,
      'updated-at': version.updatedAt,
      revocation: version.revocation
        ? { status: 'revoked', message: version.revocation.message, link: version.revocation.link }
        : { status: 'unrevoked' },
    },
    relationships: {
      'registry-module': { data: { id: version.moduleId, type: 'registry-modules' } },
      'tag-bindings': { links: { related: linkPath(state, `${V2_PREFIX}registry-module-versions/${version.id}/tag-bindings`) } },
    },
    links: { upload: uploadUrl(linkOrigin(state, url), version) },
  }
}

/** The deprecate / undeprecate answer of docs/reference/registry.md §1.4: a compound document, or bare `data` when clean. */
export function deprecationDocument(version: ModuleVersion): Record<string, unknown> {
  const deprecation = version.deprecation
  if (!deprecation) return { data: { type: 'module-versions', id: version.id } }
  return {
    data: {
      type: 'module-versions',
      id: version.id,
      relationships: { deprecation: { data: { id: deprecation.id, type: 'deprecations' } } },
    },
    included: [{ type: 'deprecations', id: deprecation.id, attributes: { link: deprecation.link, reason: deprecation.reason } }],
  }
}
