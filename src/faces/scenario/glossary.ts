import type { Explanation } from '../../core/explanation.ts'
/** Shared types of the scenario engine: the parsed scenario, targets' capabilities, and results. */

/** What a target can do beyond answering requests. A step needing a missing one is skipped, with the reason. */
export type Capability = 'auth' | 'registry' | 'clock' | 'reset' | 'inspect' | 'fixtures' | 'fake-cloud' | 'faults' | 'mounts'

/** Every capability: what the in-process emulator and a `doppel serve` have. */
export const CAPABILITIES: readonly Capability[] = ['auth', 'registry', 'clock', 'reset', 'inspect', 'fixtures', 'fake-cloud', 'faults', 'mounts']

import type { Locate, ValuePath } from '../../features/documents/index.ts'

export type { Locate, ValuePath } from '../../features/documents/index.ts'

type CloudActionName =
  | 'cloud.identityDocument'
  | 'cloud.signedCallerIdentity'
  | 'cloud.setInstanceState'
  | 'cloud.createInstance'
  | 'cloud.getInstance'
  | 'cloud.createPrincipal'
  | 'cloud.deletePrincipal'

export type ActionName = 'request' | CloudActionName | 'clock.advance' | 'clock.set' | 'reset' | 'inspect' | 'faults'

/** Provider actions, served by the fake cloud (capability `fake-cloud`). */
const CLOUD_ACTIONS: readonly CloudActionName[] = [
  'cloud.identityDocument',
  'cloud.signedCallerIdentity',
  'cloud.setInstanceState',
  'cloud.createInstance',
  'cloud.getInstance',
  'cloud.createPrincipal',
  'cloud.deletePrincipal',
]

/** Every step action; a step has exactly one. */
export const ACTIONS: readonly ActionName[] = ['request', ...CLOUD_ACTIONS, 'clock.advance', 'clock.set', 'reset', 'inspect', 'faults']

interface RetryPolicy {
  /** Further attempts after the first. */
  count: number
  intervalMs: number
  /** Retry until the response matches this (same shape as `expect`); default: until `expect` passes. */
  until?: unknown
}

export interface Step {
  /** Position in its phase, 0-based. */
  index: number
  phase: 'steps' | 'finally'
  id?: string
  desc?: string
  /** What reporters show: the id, else the description, else the action and position. */
  title: string
  line: number
  action: ActionName
  /** The action's arguments as written (templates unresolved). */
  args: unknown
  expect?: unknown
  capture?: Record<string, string>
  requires: Capability[]
  retry?: RetryPolicy
  /** Ids of earlier steps whose captures this step uses (`steps.<id>` in any template or `$sameAs`). */
  dependsOn: string[]
  /** Where this step sits in the file, for error lines at run time. */
  path: ValuePath
}

export interface Scenario {
  file: string
  name: string
  desc?: string
  labels: string[]
  requires: Capability[]
  /** Declared in order; values may hold templates over `run`, `target`, `env` and earlier vars. */
  vars: [string, unknown][]
  fixtures?: unknown
  steps: Step[]
  finally: Step[]
  locate: Locate
}

export type Verdict = 'passed' | 'failed' | 'skipped'

/** One difference between what was expected and what came back. */
export interface Mismatch {
  /** `status`, `headers.<name>`, or a JSONPath into the body (`$.auth.client_token`). */
  path: string
  message: string
}

/** A response, or the result of a non-HTTP action presented as one. */
export interface Observed {
  status: number
  headers: Record<string, string>
  /** Parsed JSON when the body is JSON, else the text; `null` for an empty body. */
  body: unknown
}

export interface RequestSummary {
  method: string
  url: string
  headers: Record<string, string>
  body?: string
}

export interface StepResult {
  title: string
  id?: string
  phase: 'setup' | 'steps' | 'finally'
  index: number
  line: number
  verdict: Verdict
  /** Why it was skipped, or why it failed when the failure is not a mismatch (errors, captures). */
  reason?: string
  mismatches: Mismatch[]
  expected?: unknown
  request?: RequestSummary
  observed?: Observed
  /** Why the target refused the request, when a failing step's answer was a refusal doppel explained. */
  explanation?: Explanation
  attempts: number
  durationMs: number
}

export interface ScenarioResult {
  file: string
  name: string
  labels: string[]
  verdict: Verdict
  reason?: string
  steps: StepResult[]
  durationMs: number
}

export interface RunResult {
  target: string
  passed: number
  failed: number
  skipped: number
  scenarios: ScenarioResult[]
  durationMs: number
}
