import type { Emulator } from '../../core/emulator.ts'
import { errorKind } from '../../core/doppel-error.ts'
import type { Auth, DoppelFixture, Module, Role, FixtureSummary } from '../fixtures/index.ts'

/**
 * Seeds the auth method, as `doppel.cloud` does the fake cloud. Each call goes through the method's own
 * management endpoint (as a fixture's `auth:` does), so its validation and messages apply; a refusal
 * throws FixtureError and leaves the instance unchanged. What is seeded here is not put back by `reset()`.
 */
export interface AuthSeeds {
  /**
   * `role/<name>`: creates or replaces a role.
   *
   * @example
   * await doppel.auth.putRole('web', { auth_type: 'ec2', bound_ami_id: 'ami-0abc1234' })
   */
  putRole(name: string, role: Role): Promise<void>
  /** `config/client`, `config/identity` and `config/tidy/*`: those given are written. */
  putConfig(config: NonNullable<Auth['config']>): Promise<void>
  /** `config/certificate/<name>`: a public certificate that verifies identity documents. */
  putCertificate(name: string, certificate: NonNullable<Auth['certificates']>[string]): Promise<void>
  /** `config/sts/<account_id>`: the role to assume for that account. */
  putSts(accountId: string, sts: NonNullable<Auth['sts']>[string]): Promise<void>
}

/** A module version's address in the registry. */
export interface VersionAddress {
  organization: string
  name: string
  provider: string
  version: string
}

/**
 * Seeds the registry, as `doppel.cloud` does the fake cloud: organisations, tokens and modules through
 * the fixture loader, a deprecation through the registry's own `PATCH`. A refusal throws (FixtureError,
 * or SeedRefusedError with the registry's answer) and leaves the instance unchanged. What is seeded here
 * is not put back by `reset()`.
 */
export interface RegistrySeeds {
  /** An organisation (the registry's owner of modules); adding one that exists changes nothing. */
  addOrganization(name: string): Promise<void>
  /** A token that sees only `organizations`; returns it (generated from the seed when not given). */
  addToken(token: { token?: string; organizations: string[] }): Promise<string>
  /**
   * A module and its versions; a version may carry its deprecation.
   *
   * @example
   * await doppel.registry.addModule({ organization: 'acme', name: 'vpc', provider: 'aws', versions: ['1.0.0'] })
   */
  addModule(module: Module): Promise<void>
  /** Deprecates a version (again: reason and link replaced), as the registry's PATCH does. */
  deprecate(version: VersionAddress, deprecation?: { reason?: string; link?: string }): Promise<void>
  /** Reverts a deprecation, as the registry's PATCH does. */
  undeprecate(version: VersionAddress): Promise<void>
}

/** A seed helper's change the service refused, with the service's own message. */
export class SeedRefusedError extends errorKind('SeedRefusedError', 'DOPPEL_SEED_REFUSED') {}

/** What the helpers need of the instance: its seed path (the fixture loader) and the emulator itself. */
interface Seedable {
  seed(fixture: DoppelFixture): Promise<FixtureSummary>
  /** Resolves once a fixture load under way is in, so a change made now is not overwritten by it. */
  ready(): Promise<void>
  emulator: Emulator
}

export function authSeeds(target: Seedable): AuthSeeds {
  const auth = async (part: Auth) => void (await target.seed({ auth: part }))
  return {
    putRole: (name, role) => auth({ roles: { [name]: role } }),
    putConfig: (config) => auth({ config }),
    putCertificate: (name, certificate) => auth({ certificates: { [name]: certificate } }),
    putSts: (accountId, sts) => auth({ sts: { [accountId]: sts } }),
  }
}

export function registrySeeds(target: Seedable): RegistrySeeds {
  // The registry's own PATCH, called directly as a fixture's auth part calls the auth method: the same
  // rules, and no journal entry for a set-up step.
  const patch = async (at: VersionAddress, deprecation: Record<string, unknown>) => {
    await target.ready()
    const { registry } = await import('../../services/registry/index.ts')
    const { emulator } = target
    const path = ['organizations', at.organization, 'registry-modules', 'private', at.organization, at.name, at.provider, at.version].map(encodeURIComponent)
    const request = new Request(`http://doppel.seed/api/v2/${path.join('/')}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${[...emulator.rootTokens][0] ?? 'root'}`, 'Content-Type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: 'module-versions', attributes: { deprecation } } }),
    })
    const response = await registry(request, { emulator, profile: emulator.profile, remoteAddress: '127.0.0.1', url: new URL(request.url) })
    if (response.status < 300) return
    const what = `${at.organization}/${at.name}/${at.provider} ${at.version}`
    throw new SeedRefusedError(`Failed to change the deprecation of ${what}: ${response.status} ${await response.text()}`)
  }
  return {
    addOrganization: async (name) => void (await target.seed({ registry: { organizations: [name] } })),
    addToken: async (token) => (await target.seed({ registry: { tokens: [token] } })).tokens[0]!.token,
    addModule: async (module) => void (await target.seed({ registry: { modules: [module] } })),
    deprecate: (at, deprecation = {}) => patch(at, { 'deprecated-status': 'Deprecated', ...deprecation }),
    undeprecate: (at) => patch(at, { 'deprecated-status': 'Undeprecated' }),
  }
}
