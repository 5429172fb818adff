import type { ClockOptions } from '../../core/clock.ts'
import { getProfile } from '../../core/profile.ts'
import { createDoppel, type Doppel } from '../../doppel.ts'
import { getFakeCloud } from '../../fake-cloud/index.ts'
import { CAPABILITIES, type Capability } from '../glossary.ts'
import type { FixtureSource } from '../fixtures/index.ts'
import { TargetError, type Target, type TargetControl, type TargetInfo, type TargetSession } from './target.ts'

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
    mount: profile.mounts[0]!,
    baseUrl: BASE_URL,
    registryUrl: BASE_URL,
    serverIdHeader: profile.serverIdHeader,
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
        ...(options.allowSha1 !== undefined && { allowSha1: options.allowSha1 }),
        ...(options.clock && { clock: options.clock }),
        ...(options.fixtures && options.fixtures.length > 0 && { fixtures: options.fixtures }),
        ...(options.env && { env: options.env }),
      })
      await doppel.ready()
      return {
        info,
        send: (request) => doppel.fetch(request),
        control: directControl(doppel),
        close: async () => undefined,
      } satisfies TargetSession
    },
    close: async () => undefined,
  }
}

/** The emulator's powers called directly, with the same results the control API gives over HTTP. */
export function directControl(doppel: Doppel): TargetControl {
  const cloud = () => getFakeCloud(doppel)
  return {
    now: async () => doppel.clock.now(),
    advanceClock: async (by) => {
      guard(() => doppel.clock.advance(by))
    },
    setClock: async (to) => {
      guard(() => doppel.clock.set(to))
    },
    reset: async () => {
      doppel.reset()
      await doppel.ready()
    },
    inspect: async (topic) => {
      switch (topic) {
        case 'state':
          return doppel.store.snapshot()
        case 'journal':
          return { total: doppel.journal.total, limit: doppel.journal.limit, entries: doppel.journal.entries() }
        case 'faults':
          return { faults: doppel.faults.list() }
        case 'clock':
          return { now: doppel.clock.now().toISOString(), frozen: doppel.clock.frozen }
      }
    },
    addFault: async (input) => ({ id: guard(() => doppel.faults.add(input)).id }),
    removeFault: async (id) => {
      if (!doppel.faults.remove(id)) throw new TargetError('no such fault')
    },
    clearFaults: async () => doppel.faults.clear(),
    loadFixtures: async (fixture, file, locate) => {
      const { loadFixtures } = await import('../fixtures/index.ts')
      return loadFixtures(doppel, fixture, file, { ...(locate && { locate }), basePath: ['fixtures'] })
    },
    // Provider errors read as the control API words them, so both targets report the same.
    identityDocument: async (instanceId, format) => guard(() => cloud().identityDocument(instanceId, format as never)),
    createInstance: async (input) => guard(() => cloud().createInstance(input)),
    getInstance: async (instanceId) => {
      const instance = cloud().getInstance(instanceId)
      if (!instance) throw new TargetError(`The instance ID '${instanceId}' does not exist`)
      return instance
    },
    setInstanceState: async (instanceId, state) => guard(() => cloud().setInstanceState(instanceId, state as never)),
    createPrincipal: async (input) => guard(() => cloud().createPrincipal(input as never)),
    deletePrincipal: async (arnOrName) => {
      if (!cloud().deletePrincipal(arnOrName)) throw new TargetError(`Failed to delete principal "${arnOrName}": no such principal`)
    },
  }
}

function guard<T>(act: () => T): T {
  try {
    return act()
  } catch (error) {
    throw new TargetError((error as Error).message)
  }
}

/** `x-service-token` → `X-Service-Token`. */
export function canonicalHeader(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase())
}
