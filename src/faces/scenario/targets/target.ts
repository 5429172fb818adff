import type { Capability, Locate } from '../glossary.ts'
import type { Explanation } from '../../../core/explanation.ts'
import { errorKind } from '../../../core/doppel-error.ts'

/** What templates see as `target.*`. */
export interface TargetInfo {
  name: string
  kind: 'emulator' | 'http'
  /** A server that is not doppel (scenarios labelled for it are skipped: runner/real-server-labels.ts). */
  real?: boolean
  profile: 'service' | 'vault'
  /** Management token of the auth service. */
  token: string
  /** Bearer token of the registry. */
  registryToken: string
  /** The header the auth service reads the token from (`X-Service-Token`, `X-Vault-Token`). */
  tokenHeader: string
  mount: string
  baseUrl: string
  registryUrl: string
  /** The iam login server-id header of the profile. */
  serverIdHeader: string
  /** The status of bad input the real service answers with a 500: 400 in the service profile, 500 in the vault profile. */
  badInputStatus: number
}

export type InspectTopic = 'state' | 'journal' | 'faults' | 'clock'

/** The emulator's powers, in process or through the control API of a `doppel serve`. */
export interface TargetControl {
  now(): Promise<Date>
  advanceClock(by: string | number): Promise<void>
  setClock(to: string): Promise<void>
  reset(): Promise<void>
  inspect(topic: InspectTopic): Promise<unknown>
  addFault(input: Record<string, unknown>): Promise<{ id: string }>
  removeFault(id: string): Promise<void>
  clearFaults(): Promise<void>
  /** Loads a fixture; resolves with the loader's summary. Throws FixtureError. */
  loadFixtures(fixture: unknown, file: string, locate?: Locate): Promise<unknown>
  identityDocument(instanceId: string, format: string): Promise<string>
  createInstance(input: Record<string, unknown>): Promise<unknown>
  getInstance(instanceId: string): Promise<unknown>
  setInstanceState(instanceId: string, state: string): Promise<unknown>
  createPrincipal(input: Record<string, unknown>): Promise<unknown>
  deletePrincipal(arnOrName: string): Promise<void>
}

interface SessionOptions {
  /** Unique per scenario run: `run.id`. */
  runId: string
  /** Enable a fresh auth mount for this scenario (targets with `mounts` on shared servers). */
  isolateMount: boolean
}

/** One scenario's view of a target: on the emulator a fresh instance, on a server a (possibly fresh) mount. */
export interface TargetSession {
  readonly info: TargetInfo
  send(request: Request): Promise<Response>
  /**
   * Why a refused request was refused, as doppel's journal says (`doppel.explain` in process, the newest
   * matching entry of `GET /_doppel/journal` over HTTP); absent on targets that are not doppel.
   */
  explain?(request: { method: string; url: string }, response: Response): Promise<Explanation | undefined>
  readonly control: TargetControl
  close(): Promise<void>
}

export interface Target {
  readonly info: TargetInfo
  readonly capabilities: ReadonlySet<Capability>
  /** `clock.advance` up to this long becomes a real wait where the target has no `clock`. */
  readonly maxRealWaitMs: number
  open(options: SessionOptions): Promise<TargetSession>
  close(): Promise<void>
}

/** A target action that failed: the service or control API refused it, or the network did. */
export class TargetError extends errorKind('TargetError', 'DOPPEL_TARGET_FAILED') {}

/** The target did not answer at all (exit code 3). */
export class TargetUnreachableError extends errorKind('TargetUnreachableError', 'DOPPEL_TARGET_UNREACHABLE') {}
