import { describeValue } from '../../../core/describe-value.ts'
import type { Emulator } from '../../../core/emulator.ts'
import { ALPHANUMERIC } from '../../../core/random.ts'
import type {
  FixtureModule,
  FixtureVersion,
  ModuleContents,
  ModuleVersion,
  RegistryFixture,
  RegistryModule,
  SeedResult,
} from '../glossary.ts'
import { isObject } from '../api/json-document.ts'
import { moduleContentsFromFiles } from '../archives/module-contents.ts'
import { MODULE_NAME, ORGANIZATION_NAME, PROVIDER_NAME } from './names.ts'
import { coordinates, ensureOrganization, findModule, findVersion, newId, newObjectId, now, registryState } from './registry-state.ts'
import { isSemver } from './semver.ts'
import { errorKind } from '../../../core/doppel-error.ts'
import { unknownField } from '../../../core/did-you-mean.ts'

/** An invalid registry fixture; nothing of it was stored. */
export class RegistryFixtureError extends errorKind('RegistryFixtureError', 'DOPPEL_INVALID_REGISTRY_FIXTURE') {}

function fail(where: string, problem: string): never {
  throw new RegistryFixtureError(`Failed to seed the registry: ${where} ${problem}`)
}

/** Refuses a key the fixture format does not have: a misspelt one would otherwise be dropped unseen. */
function knownFields(value: Record<string, unknown>, where: string, known: readonly string[]): void {
  const unknown = unknownField(value, known)
  if (unknown !== undefined) fail(where, `has an ${unknown}`)
}

function list(value: unknown, where: string): unknown[] {
  if (value === undefined) return []
  if (!Array.isArray(value)) fail(where, 'must be an array')
  return value
}

function optional(value: unknown, where: string, type: 'string' | 'boolean'): void {
  if (value !== undefined && typeof value !== type) fail(where, `must be a ${type}`)
}

function organization(value: unknown, where: string): string {
  if (typeof value !== 'string' || !ORGANIZATION_NAME.test(value)) fail(where, `must be an organisation name (letters, digits, - and _), got ${describeValue(value)}`)
  return value
}

/** Checks a whole fixture before anything is stored, so a bad fixture leaves the state as it was. */
function validate(emulator: Emulator, fixture: unknown): RegistryFixture {
  if (!isObject(fixture)) fail('the fixture', 'must be an object')
  knownFields(fixture, 'the fixture', ['organizations', 'tokens', 'modules'])
  list(fixture.organizations, 'organizations').forEach((o, i) => {
    if (isObject(o)) knownFields(o, `organizations[${i}]`, ['name'])
    organization(isObject(o) ? o.name : o, `organizations[${i}]${isObject(o) ? '.name' : ''}`)
  })
  const tokens = new Set<string>()
  list(fixture.tokens, 'tokens').forEach((t, i) => {
    if (!isObject(t)) fail(`tokens[${i}]`, 'must be an object')
    knownFields(t, `tokens[${i}]`, ['token', 'organizations'])
    if (t.token !== undefined) {
      if (typeof t.token !== 'string' || !/^\S+$/.test(t.token)) fail(`tokens[${i}].token`, 'must be a non-empty string without spaces')
      if (emulator.isRootToken(t.token)) fail(`tokens[${i}].token`, 'is a root token')
      if (tokens.has(t.token)) fail(`tokens[${i}].token`, 'appears twice')
      tokens.add(t.token)
    }
    if (!Array.isArray(t.organizations)) fail(`tokens[${i}].organizations`, 'must be an array')
    t.organizations.forEach((o, j) => organization(o, `tokens[${i}].organizations[${j}]`))
  })
  const seen = new Set<string>()
  list(fixture.modules, 'modules').forEach((m, i) => validateModule(emulator, m, `modules[${i}]`, seen))
  return fixture as RegistryFixture
}

function validateModule(emulator: Emulator, m: unknown, where: string, seen: Set<string>): void {
  if (!isObject(m)) fail(where, 'must be an object')
  knownFields(m, where, ['organization', 'name', 'provider', 'description', 'versions'])
  organization(m.organization, `${where}.organization`)
  if (typeof m.name !== 'string' || !MODULE_NAME.test(m.name)) fail(`${where}.name`, `is not a module name: ${describeValue(m.name)}`)
  if (typeof m.provider !== 'string' || !PROVIDER_NAME.test(m.provider)) {
    fail(`${where}.provider`, `is not a provider name (lowercase alphanumerics): ${describeValue(m.provider)}`)
  }
  optional(m.description, `${where}.description`, 'string')
  const key = coordinates(m.organization as string, m.name, m.provider)
  if (seen.has(key)) fail(where, 'repeats a module already in this fixture')
  seen.add(key)
  const state = registryState(emulator)
  const versions = new Set<string>()
  list(m.versions, `${where}.versions`).forEach((entry, j) => {
    const at = `${where}.versions[${j}]`
    const v: Record<string, unknown> = isObject(entry) ? entry : { version: entry }
    knownFields(v, at, ['version', 'status', 'deprecation', 'readme', 'inputs', 'outputs', 'resources'])
    if (typeof v.version !== 'string' || !isSemver(v.version)) fail(`${at}.version`, `is not a semantic version: ${describeValue(v.version)}`)
    if (versions.has(v.version) || findVersion(state, m.organization as string, m.name as string, m.provider as string, v.version)) {
      fail(`${at}.version`, `${v.version} already exists`)
    }
    versions.add(v.version)
    if (v.status !== undefined && v.status !== 'ok' && v.status !== 'pending') fail(`${at}.status`, 'must be "ok" or "pending"')
    if (v.deprecation !== undefined && v.deprecation !== null) {
      if (!isObject(v.deprecation)) fail(`${at}.deprecation`, 'must be an object or null')
      knownFields(v.deprecation, `${at}.deprecation`, ['reason', 'link'])
      optional(v.deprecation.reason, `${at}.deprecation.reason`, 'string')
      optional(v.deprecation.link, `${at}.deprecation.link`, 'string')
    }
    optional(v.readme, `${at}.readme`, 'string')
    const fields: Record<string, Record<string, 'string' | 'boolean' | 'required'>> = {
      inputs: { name: 'required', type: 'string', description: 'string', default: 'string', required: 'boolean' },
      outputs: { name: 'required', description: 'string' },
      resources: { name: 'required', type: 'required' },
    }
    for (const [kind, shape] of Object.entries(fields)) {
      list(v[kind], `${at}.${kind}`).forEach((item, k) => {
        if (!isObject(item)) fail(`${at}.${kind}[${k}]`, 'must be an object')
        knownFields(item, `${at}.${kind}[${k}]`, Object.keys(shape))
        for (const [field, type] of Object.entries(shape)) {
          const value = item[field]
          if (type === 'required') {
            if (typeof value !== 'string' || value === '') fail(`${at}.${kind}[${k}].${field}`, 'must be a non-empty string')
          } else optional(value, `${at}.${kind}[${k}].${field}`, type)
        }
      })
    }
  })
}

/** What a seeded version declares, shaped as if read from its code. */
function contentsOf(v: FixtureVersion): ModuleContents {
  const contents = moduleContentsFromFiles(new Map())
  const root = contents.root
  root.readme = v.readme ?? ''
  root.empty = false
  root.inputs = (v.inputs ?? []).map((i) => ({
    name: i.name,
    type: i.type ?? '',
    description: i.description ?? '',
    default: i.default ?? '',
    required: i.required ?? i.default === undefined,
  }))
  root.outputs = (v.outputs ?? []).map((o) => ({ name: o.name, description: o.description ?? '' }))
  root.resources = (v.resources ?? []).map((r) => ({ name: r.name, type: r.type }))
  const providers = [...new Set(root.resources.map((r) => r.type.split('_')[0]!))]
  root.providerDependencies = providers.map((name) => ({ name, namespace: 'hashicorp', source: `hashicorp/${name}`, version: '' }))
  return contents
}

function addModule(emulator: Emulator, m: FixtureModule): void {
  const state = registryState(emulator)
  const at = now(state)
  const existing = findModule(state, m.organization, m.name, m.provider)
  const module: RegistryModule = existing
    ? { ...existing, description: m.description ?? existing.description }
    : {
        id: newId(state, 'mod'),
        organization: m.organization,
        name: m.name,
        provider: m.provider,
        description: m.description ?? '',
        noCode: false,
        downloads: 0,
        createdAt: at,
        updatedAt: at,
      }
  ensureOrganization(state, m.organization)
  state.modules.set(module)
  for (const entry of m.versions ?? []) {
    const v: FixtureVersion = typeof entry === 'string' ? { version: entry } : entry
    const status = v.status ?? 'ok'
    const version: ModuleVersion = {
      id: newId(state, 'modver'),
      moduleId: module.id,
      organization: module.organization,
      name: module.name,
      provider: module.provider,
      version: v.version,
      status,
      commitSha: null,
      createdAt: at,
      updatedAt: at,
      publishedAt: status === 'ok' ? at : null,
      uploadObject: newObjectId(state),
      downloadObject: newObjectId(state),
      deprecation: v.deprecation ? { id: newId(state, 'dep'), reason: v.deprecation.reason ?? '', link: v.deprecation.link ?? '', createdAt: at } : null,
      revocation: null,
      contents: status === 'ok' ? contentsOf(v) : null,
    }
    state.versions.set(version)
  }
}

/**
 * Loads a fixture and says which tokens it made. Validates everything first: an invalid fixture throws
 * a RegistryFixtureError and stores nothing.
 */
export function loadRegistryFixture(emulator: Emulator, input: RegistryFixture): SeedResult {
  const fixture = validate(emulator, input)
  const state = registryState(emulator)
  for (const o of fixture.organizations ?? []) ensureOrganization(state, typeof o === 'string' ? o : o.name)
  const tokens: SeedResult['tokens'] = []
  for (const t of fixture.tokens ?? []) {
    const token = t.token ?? `${emulator.random.string(14, ALPHANUMERIC)}.atlasv1.${emulator.random.string(67, ALPHANUMERIC)}`
    const organizations = [...new Set(t.organizations)]
    for (const o of organizations) ensureOrganization(state, o)
    state.tokens.set({ token, organizations, createdAt: now(state) })
    tokens.push({ token, organizations })
  }
  for (const m of fixture.modules ?? []) addModule(emulator, m)
  return { tokens }
}

/**
 * Seeds the registry of an emulator instance without HTTP: organisations, tokens (generated when
 * omitted), modules and versions (status `ok` unless given). Throws on invalid input, storing nothing.
 *
 * @example
 * seedRegistry(doppel, { modules: [{ organization: 'acme', name: 'vpc', provider: 'aws', versions: ['1.0.0'] }] })
 */
export function seedRegistry(emulator: Emulator, fixture: RegistryFixture): void {
  loadRegistryFixture(emulator, fixture)
}
