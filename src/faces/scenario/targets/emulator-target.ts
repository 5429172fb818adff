import type { ClockOptions } from '../../../core/clock.ts'
import { getProfile } from '../../../core/profile.ts'
import { authProfile, badInputStatusCode } from '../../../services/cloud-auth/auth-profile.ts'
import { createDoppel, type Doppel } from '../../../features/doppel/index.ts'
import { callControl } from '../../../services/control/index.ts'
import { CAPABILITIES, type Capability } from '../glossary.ts'
import type { FixtureSource } from '../../../features/fixtures/index.ts'
import { controlClient, refuse, type ControlCaller } from './control-client.ts'
import type { Target, TargetControl, TargetInfo, TargetSession } from './target.ts'

export interface EmulatorTargetOptions {
  name?: string
  /** Seed of every scenario's emulator instance (default 1), so runs repeat exactly. */
  seed?: number | string
  profile?: 'service' | 'vault'
  rootTokens?: string[]
  allowSha1?: boolean
  clock?: ClockOptions
  /** Fixtures every instance starts from (before the scenario's own). */
  fixtures?: FixtureSource[]
  env?: Record<string, string | undefined>
}

const BASE_URL = 'http://doppel.test'

/** In process: each scenario gets a fresh emulator instance with every capability. */
export function createEmulatorTarget(options: EmulatorTargetOptions = {}): Target {
  const profile = getProfile(options.profile)
  const token = options.rootTokens?.[0] ?? 'root'
  const info: TargetInfo = {
    name: options.name ?? 'emulator',
    kind: 'emulator',
    profile: profile.name,
    token,
    registryToken: token,
    tokenHeader: canonicalHeader(profile.tokenHeaders[0]!),
    mount: authProfile(profile).mounts[0]!,
    baseUrl: BASE_URL,
    registryUrl: BASE_URL,
    serverIdHeader: authProfile(profile).serverIdHeader,
    badInputStatus: badInputStatusCode(profile),
  }
  return {
    info,
    capabilities: new Set<Capability>(CAPABILITIES),
    maxRealWaitMs: 0,
    async open() {
      const doppel = createDoppel({
        seed: options.seed ?? 1,
        profile: profile.name,
        ...(options.rootTokens && { rootTokens: options.rootTokens }),
        cloudAuth: { ...(options.allowSha1 !== undefined && { allowSha1: options.allowSha1 }), ...(options.env && { env: options.env }) },
        ...(options.clock && { clock: options.clock }),
        ...(options.fixtures && options.fixtures.length > 0 && { fixtures: options.fixtures }),
      })
      await doppel.ready()
      return {
        info,
        send: (request) => doppel.fetch(request),
        explain: async (_request, response) => doppel.explain(response),
        control: directControl(doppel),
        close: async () => undefined,
      } satisfies TargetSession
    },
    close: async () => undefined,
  }
}

/**
 * The emulator's powers in process: the control API's own routes called without HTTP (`callControl`), so
 * the checks and messages are those a `doppel serve` gives. Fixtures load directly, to report lines in
 * the scenario file.
 */
function directControl(doppel: Doppel): TargetControl {
  const call: ControlCaller = async (method, path, body) => {
    const result = await callControl(doppel, method, path, body)
    if (result.status >= 400) refuse(result.status, JSON.stringify(result.body))
    return result.body ?? null
  }
  const control = controlClient(call)
  return {
    ...control,
    reset: async () => {
      await control.reset()
      await doppel.ready()
    },
    loadFixtures: async (fixture, file, locate) => {
      const { loadFixtures } = await import('../../../features/fixtures/index.ts')
      return loadFixtures(doppel, fixture, file, { ...(locate && { locate }), basePath: ['fixtures'] })
    },
  }
}

/** `x-service-token` → `X-Service-Token`. */
export function canonicalHeader(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase())
}
