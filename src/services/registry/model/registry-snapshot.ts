/** The registry's part of a snapshot: organisations, tokens, modules, versions and uploaded archives. */
import { shape, table, tables, tablesCodec } from '../../../core/snapshot/index.ts'
import type {
  AccessToken,
  Deprecation,
  ModuleArchive,
  ModuleContents,
  ModuleDependency,
  ModuleInput,
  ModuleOutput,
  ModuleResource,
  ModuleSource,
  ModuleVersion,
  Organization,
  ProviderDependency,
  RegistryModule,
  Revocation,
} from '../glossary.ts'
import { REGISTRY_DOMAIN, registryState, type RegistryState } from './registry-state.ts'

const organizationShape = shape.object<Organization>({ name: shape.string, createdAt: shape.string })
const organizationTable = table((state: RegistryState) => state.organizations, organizationShape, (o) => o.name)

const tokenShape = shape.object<AccessToken>({ token: shape.string, organizations: shape.array(shape.string), createdAt: shape.string })
const tokenTable = table((state: RegistryState) => state.tokens, tokenShape, (t) => t.token)

const moduleShape = shape.object<RegistryModule>({
  id: shape.string,
  organization: shape.string,
  name: shape.string,
  provider: shape.string,
  description: shape.string,
  noCode: shape.boolean,
  downloads: shape.integer,
  createdAt: shape.string,
  updatedAt: shape.string,
})
const moduleTable = table((state: RegistryState) => state.modules, moduleShape, (m) => m.id)

const sourceShape = shape.object<ModuleSource>({
  path: shape.string,
  readme: shape.string,
  empty: shape.boolean,
  inputs: shape.array(
    shape.object<ModuleInput>({
      name: shape.string,
      type: shape.string,
      description: shape.string,
      default: shape.string,
      required: shape.boolean,
    }),
  ),
  outputs: shape.array(shape.object<ModuleOutput>({ name: shape.string, description: shape.string })),
  dependencies: shape.array(shape.object<ModuleDependency>({ name: shape.string, source: shape.string, version: shape.string })),
  providerDependencies: shape.array(
    shape.object<ProviderDependency>({ name: shape.string, namespace: shape.string, source: shape.string, version: shape.string }),
  ),
  resources: shape.array(shape.object<ModuleResource>({ name: shape.string, type: shape.string })),
})

const versionShape = shape.object<ModuleVersion>({
  id: shape.string,
  moduleId: shape.string,
  organization: shape.string,
  name: shape.string,
  provider: shape.string,
  version: shape.string,
  status: shape.literal('pending', 'ok'),
  commitSha: shape.nullable(shape.string),
  createdAt: shape.string,
  updatedAt: shape.string,
  publishedAt: shape.nullable(shape.string),
  uploadObject: shape.string,
  downloadObject: shape.string,
  deprecation: shape.nullable(shape.object<Deprecation>({ id: shape.string, reason: shape.string, link: shape.string, createdAt: shape.string })),
  revocation: shape.nullable(shape.object<Revocation>({ message: shape.string, link: shape.string, createdAt: shape.string })),
  contents: shape.nullable(
    shape.object<ModuleContents>({ root: sourceShape, submodules: shape.array(sourceShape), examples: shape.array(sourceShape) }),
  ),
})
const versionTable = table((state: RegistryState) => state.versions, versionShape, (v) => v.id)

const archiveShape = shape.object<ModuleArchive>({ versionId: shape.string, base64: shape.string })
const archiveTable = table((state: RegistryState) => state.archives, archiveShape, (a) => a.versionId)

export const registrySnapshotCodec = tablesCodec({
  name: 'registry',
  tables: tables({ organizations: organizationTable, tokens: tokenTable, modules: moduleTable, versions: versionTable, archives: archiveTable }),
  existing: (emulator) => emulator.existingDomain<RegistryState>(REGISTRY_DOMAIN),
  state: registryState,
  check(saved, path) {
    const organizations = new Set(saved.organizations.map((o) => o.name))
    shape.checkReferences(saved.modules, `${path}.modules`, 'organization', organizations, 'organization')
    shape.checkReferences(saved.versions, `${path}.versions`, 'moduleId', new Set(saved.modules.map((m) => m.id)), 'module')
    shape.checkReferences(saved.archives, `${path}.archives`, 'versionId', new Set(saved.versions.map((v) => v.id)), 'version')
    saved.tokens.forEach((token, index) => {
      const missing = token.organizations.findIndex((name) => !organizations.has(name))
      if (missing !== -1) throw new shape.SnapshotError(`Failed to read the snapshot: ${path}.tokens[${index}].organizations[${missing}] names no organization`)
    })
  },
})
