import type { RunResult } from '../glossary.ts'
import { ownEntry } from '../../../core/own-field.ts'

/**
 * Labels of scenarios that cannot give a verdict on a real server, with why: a run against one skips them
 * on the label (conformance/README.md, "Labels").
 */
const CANNOT_RUN_ON_REAL: Readonly<Record<string, string>> = {
  'needs-control-api': "it needs doppel's control API or virtual clock",
  'needs-unconfigured-mount': "it expects a mount without the configuration a real server needs to reach the fake cloud",
  'needs-aws-hostnames': "the method calls AWS's own host names there, which only doppel in process answers",
}

/**
 * Labels of a known difference that fails on a real server, with its reason beside the label: skipped there
 * too. (`differs-from-real` alone is no such label: those scenarios read the status as
 * `target.badInputStatus` and pass on a real server of the vault profile.)
 */
const DIFFERS_ON_REAL: Readonly<Record<string, string>> = {
  'differs-from-vault': "doppel follows the spec where Vault's method does not",
  'differs-from-openbao': "OpenBao's server answers differently from Vault's here",
}

/** Why a real server skips a scenario with these labels, if it does. */
export function realServerSkip(labels: readonly string[]): string | undefined {
  for (const label of labels) {
    const why = ownEntry(CANNOT_RUN_ON_REAL, label) ?? ownEntry(DIFFERS_ON_REAL, label)
    if (why !== undefined) return `not run on a real server: ${why} (label ${label})`
  }
  return undefined
}

/**
 * A run against a real server in three states: passes there; cannot run there (skipped by a label, or for
 * lacking doppel's capabilities); a difference (labelled as known, or failed and not yet resolved).
 */
export function realServerStates(result: RunResult): { pass: number; cannotRun: number; differs: number; unresolved: number } {
  const labelled = (labels: readonly string[]) => labels.some((label) => ownEntry(DIFFERS_ON_REAL, label) !== undefined)
  const skipped = result.scenarios.filter((s) => s.verdict === 'skipped')
  const differs = skipped.filter((s) => labelled(s.labels)).length
  return { pass: result.passed, cannotRun: skipped.length - differs, differs: differs + result.failed, unresolved: result.failed }
}

export function realServerSummary(result: RunResult): string {
  const s = realServerStates(result)
  return `on the real server: ${s.pass} pass, ${s.cannotRun} cannot run against a real server, ${s.differs} differ (${s.unresolved} not resolved)`
}
