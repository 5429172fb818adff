import type { ModuleSource, ModuleVersion, RegistryModule } from '../glossary.ts'
import { coordinates, versionsOf, type RegistryState } from '../model/registry-state.ts'
import { emptyModuleSource } from '../archives/module-contents.ts'

/** Versions the registry protocol shows: only those whose upload was ingested (docs/reference/registry.md §2.2). */
export function publishedVersions(state: RegistryState, module: RegistryModule): ModuleVersion[] {
  return versionsOf(state, module.id).filter((v) => v.status === 'ok')
}

function deprecationOf(version: ModuleVersion): { reason: string; link: string } | null {
  return version.deprecation ? { reason: version.deprecation.reason, link: version.deprecation.link } : null
}

function providers(source: ModuleSource | undefined): { name: string; version: string }[] {
  return (source?.providerDependencies ?? []).map((p) => ({ name: p.name, version: p.version }))
}

/** `GET …/:provider/versions`: one module, every published version with `deprecation` (docs/reference/registry.md §2.2). */
export function versionsDocument(state: RegistryState, module: RegistryModule): Record<string, unknown> {
  return {
    modules: [
      {
        source: `${module.organization}/${module.name}/${module.provider}`,
        versions: publishedVersions(state, module).map((v) => ({
          version: v.version,
          submodules: (v.contents?.submodules ?? []).map((s) => ({ path: s.path, providers: providers(s), dependencies: s.dependencies })),
          root: { dependencies: v.contents?.root.dependencies ?? [], providers: providers(v.contents?.root) },
          deprecation: deprecationOf(v),
        })),
      },
    ],
  }
}

function directory(source: ModuleSource, name: string): Record<string, unknown> {
  return {
    path: source.path,
    name,
    readme: source.readme,
    empty: source.empty,
    inputs: source.inputs,
    outputs: source.outputs,
    dependencies: source.dependencies,
    provider_dependencies: source.providerDependencies,
    resources: source.resources,
  }
}


/** `GET …/:provider/:version`: the full record of docs/reference/registry.md §2.3, `deprecation` an object or null. */
export function versionRecord(state: RegistryState, module: RegistryModule, version: ModuleVersion): Record<string, unknown> {
  const contents = version.contents
  const basename = (path: string) => path.slice(path.lastIndexOf('/') + 1)
  const siblings = state.modules.findBy('name', coordinates(module.organization, module.name))
  return {
    id: `${module.organization}/${module.name}/${module.provider}/${version.version}`,
    owner: '',
    namespace: module.organization,
    name: module.name,
    version: version.version,
    provider: module.provider,
    provider_logo_url: `/images/providers/${module.provider}.png`,
    description: module.description,
    source: '',
    tag: '',
    published_at: version.publishedAt ?? version.createdAt,
    downloads: module.downloads,
    verified: false,
    root: directory(contents?.root ?? emptyModuleSource(), module.name),
    submodules: (contents?.submodules ?? []).map((s) => directory(s, basename(s.path))),
    examples: (contents?.examples ?? []).map((s) => directory(s, basename(s.path))),
    providers: siblings.map((m) => m.provider).sort(),
    versions: publishedVersions(state, module).map((v) => v.version),
    deprecation: deprecationOf(version),
  }
}
