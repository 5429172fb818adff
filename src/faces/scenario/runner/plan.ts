import { parseDuration } from '../../../core/duration.ts'
import type { Capability, Scenario, Step } from '../glossary.ts'
import { hasTemplate } from '../expressions/template.ts'
import type { Target } from '../targets/target.ts'
import { realServerSkip } from './real-server-labels.ts'

/** Which service a request goes to: explicit, else by path (`/api/`, `/.well-known/` → registry). */
export function requestService(args: { service?: string; path?: string; url?: string }): 'auth' | 'registry' | undefined {
  if (args.service === 'auth' || args.service === 'registry') return args.service
  if (args.url !== undefined) return undefined
  const path = args.path ?? ''
  if (hasTemplate(path.slice(0, 3))) return 'auth'
  return /^\/(api\/|\.well-known\/|_archivist\/)/.test(path) ? 'registry' : 'auth'
}

/** The capabilities a step needs: its action's, plus what it declares. */
function stepCapabilities(step: Step): Capability[] {
  const needs = new Set<Capability>(step.requires)
  switch (step.action) {
    case 'request': {
      const service = requestService(step.args as { service?: string; path?: string; url?: string })
      if (service) needs.add(service)
      break
    }
    case 'clock.advance':
    case 'clock.set':
      needs.add('clock')
      break
    case 'reset':
      needs.add('reset')
      break
    case 'inspect':
      needs.add('inspect')
      break
    case 'faults':
      needs.add('faults')
      break
    default:
      needs.add('fake-cloud')
  }
  return [...needs]
}

/** Control steps change what every later step sees: skipping one skips the rest of the scenario. */
export function isControlStep(step: Step): boolean {
  return step.action === 'clock.advance' || step.action === 'clock.set' || step.action === 'reset' || step.action === 'faults'
}

/** Whether a scenario talks to the auth service (so a shared server gives it a fresh mount). */
export function usesAuth(scenario: Scenario): boolean {
  const fixtures = scenario.fixtures as { auth?: unknown } | undefined
  return fixtures?.auth !== undefined || [...scenario.steps, ...scenario.finally].some((step) => stepCapabilities(step).includes('auth'))
}

/** A label naming the one profile a scenario's answers hold for, e.g. `profile-vault`. */
const PROFILE_LABEL = 'profile-'

export interface Plan {
  /** Why the whole scenario is skipped, if it is. */
  scenario?: string
  /** Per step (main steps, then finally steps): why it is skipped, known before running. */
  steps: Map<Step, string | undefined>
}

/**
 * The skips known before anything runs: a scenario for another profile (labelled `profile-<name>`), one
 * labelled as not running on a real server when the target is one,
 * capabilities the target lacks (with `clock.advance` degrading to a real wait within `maxRealWait`), steps
 * whose captures come from a skipped step, and steps after a skipped control step.
 */
export function planSkips(scenario: Scenario, target: Target): Plan {
  const lacks = (capabilities: Capability[]) => capabilities.filter((c) => !target.capabilities.has(c))
  const describe = (missing: Capability[]) =>
    `target "${target.info.name}" lacks ${missing.length === 1 ? 'capability' : 'capabilities'} ${missing.map((m) => `"${m}"`).join(', ')}`
  const scenarioNeeds = [...scenario.requires]
  if (scenario.fixtures !== undefined) scenarioNeeds.push('fixtures')
  const scenarioMissing = lacks(scenarioNeeds)
  const steps = new Map<Step, string | undefined>()
  const skipAll = (reason: string): Plan => {
    for (const step of [...scenario.steps, ...scenario.finally]) steps.set(step, reason)
    return { scenario: reason, steps }
  }
  const profiles = scenario.labels.filter((label) => label.startsWith(PROFILE_LABEL)).map((label) => label.slice(PROFILE_LABEL.length))
  if (profiles.length > 0 && !profiles.includes(target.info.profile)) {
    return skipAll(`target "${target.info.name}" runs the ${target.info.profile} profile; this scenario is for ${profiles.join(', ')}`)
  }
  const onReal = target.info.real ? realServerSkip(scenario.labels) : undefined
  if (onReal) return skipAll(onReal)
  if (scenarioMissing.length > 0) return skipAll(describe(scenarioMissing))
  const skipped = new Set<string>()
  let blocked: string | undefined
  for (const step of [...scenario.steps, ...scenario.finally]) {
    let reason: string | undefined
    const missing = lacks(stepCapabilities(step))
    if (missing.length > 0 && !(step.action === 'clock.advance' && missing.length === 1 && withinRealWait(step, target))) {
      reason = describe(missing)
      if (step.action === 'clock.advance') reason += ` and ${String(step.args)} is longer than its maxRealWait`
    }
    const dependency = step.dependsOn.find((id) => skipped.has(id))
    if (!reason && dependency) reason = `uses captures of skipped step "${dependency}"`
    if (!reason && blocked && step.phase === 'steps') reason = blocked
    if (reason) {
      if (step.id) skipped.add(step.id)
      if (isControlStep(step) && step.phase === 'steps') blocked ??= `follows skipped step "${step.title}", whose effect later steps rely on`
    }
    steps.set(step, reason)
  }
  return { steps }
}

function withinRealWait(step: Step, target: Target): boolean {
  if (typeof step.args === 'string' && hasTemplate(step.args)) return false
  try {
    return parseDuration(step.args as string | number, { allowFraction: true }) * 1000 <= target.maxRealWaitMs
  } catch {
    return false
  }
}
