/**
 * The flags of the commands that run scenarios (`run`, `conformance`, `conformance-vault`): which
 * scenarios, how they run and report, and against which target.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { ScenarioError } from '../features/documents/index.ts'
import { LabelExpressionError, parseLabelExpression, REPORTERS, type ReporterName, type SuiteOptions, type TargetConfig, TargetError, loadTargetsFile } from '../faces/scenario/index.ts'
import type { FlagTable } from './flag-table.ts'
import { baseUrlFlag, looksLikeUrl, PROFILE_OPTION, profileFlag, SEED_OPTION, seedFlag } from './flags.ts'
import { UsageError } from './usage-error.ts'

/** Where the scenario-running commands' help starts its descriptions. */
export const SUITE_HELP_COLUMN = 21

export const SUITE_OPTIONS = {
  var: { type: 'string', multiple: true, value: '<k=v>', help: 'Set a scenario var; repeatable' },
  label: { type: 'string', value: '<expr>', help: "Only scenarios whose labels match, e.g. 'ec2 and not iam'" },
  jobs: { type: 'string', value: '<n>', help: 'Scenarios run at once (default 1)' },
  'fail-fast': { type: 'boolean', default: false, help: 'Start no scenario after one fails' },
  reporter: { type: 'string', default: 'pretty', value: '<r>', help: 'pretty (default), junit, json or tap' },
  out: { type: 'string', value: '<file>', help: 'Write the report to a file; progress still goes to stdout' },
  list: { type: 'boolean', default: false, help: 'List the scenarios that would run, and exit' },
} as const satisfies FlagTable

type SuiteValues = { var?: string[]; label?: string; jobs?: string; 'fail-fast': boolean; reporter: string; out?: string; list: boolean }

/** How the scenarios are selected, run and reported. */
export function suiteFlags(command: string, values: SuiteValues, cwd: string): Omit<SuiteOptions, 'command' | 'files' | 'target'> {
  if (!(REPORTERS as readonly string[]).includes(values.reporter)) {
    throw new UsageError(`doppel ${command}: --reporter must be one of ${REPORTERS.join(', ')}, not "${values.reporter}"`)
  }
  const jobs = values.jobs === undefined ? 1 : Number(values.jobs)
  if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError(`doppel ${command}: --jobs must be a positive integer, not "${values.jobs}"`)
  const vars: Record<string, string> = {}
  for (const pair of values.var ?? []) {
    const at = pair.indexOf('=')
    if (at <= 0) throw new UsageError(`doppel ${command}: --var takes name=value, not "${pair}"`)
    vars[pair.slice(0, at)] = pair.slice(at + 1)
  }
  let filter
  try {
    filter = values.label === undefined ? undefined : parseLabelExpression(values.label)
  } catch (error) {
    if (!(error instanceof LabelExpressionError)) throw error
    throw new UsageError(`doppel ${command}: ${error.message}`)
  }
  return {
    ...(filter && { filter }),
    list: values.list,
    vars,
    jobs,
    failFast: values['fail-fast'],
    reporter: values.reporter as ReporterName,
    ...(values.out !== undefined && { out: resolve(cwd, values.out) }),
  }
}

export const TARGET_OPTIONS = {
  target: { type: 'string', value: '<t>', help: 'emulator (default), a server URL, or a name from --targets' },
  targets: {
    type: 'string',
    value: '<file>',
    help: 'A targets.yaml naming several targets (${VAR} expands from the environment;\ndoppel conformance reads conformance/targets.yaml when there is one)',
  },
  profile: { ...PROFILE_OPTION.profile, value: '<p>', help: 'service (default) or vault, for the emulator and URL targets' },
  token: { type: 'string', value: '<t>', help: 'Management token for a URL target (default "root" on doppel serve)' },
  seed: { ...SEED_OPTION.seed, help: 'Random seed of the emulator instances, for repeatable ids (default 1)' },
} as const satisfies FlagTable

type TargetValues = { target?: string; targets?: string; token?: string; profile?: string; seed?: string }

/**
 * The target `--target` names: `emulator`, a URL, or a name in the targets file (`--targets`, else
 * `defaultTargets` when it exists), with `--profile`, `--token` and `--seed` applied.
 */
export function targetFlags(command: string, values: TargetValues, cwd: string, defaultTargets?: string): TargetConfig {
  const name = values.target ?? 'emulator'
  const profile = profileFlag(command, values.profile)
  const seed = seedFlag(command, values.seed)
  const isUrl = looksLikeUrl(name)
  if (isUrl) baseUrlFlag(command, '--target', name)
  const targetsPath = values.targets !== undefined ? resolve(cwd, values.targets) : defaultTargets && existsSync(defaultTargets) ? defaultTargets : undefined
  const file = targetsPath === undefined || isUrl ? undefined : targetMistakesAsUsage(command, () => loadTargetsFile(targetsPath))
  let config: TargetConfig
  if (file && (file.names.includes(name) || name !== 'emulator')) {
    config = targetMistakesAsUsage(command, () => file.resolve(name))
  } else if (name === 'emulator') {
    config = { kind: 'emulator' }
  } else if (isUrl) {
    config = { kind: 'http', url: name, name }
  } else {
    throw new UsageError(`doppel ${command}: --target must be emulator or a URL (or a name with --targets), not "${name}"`)
  }
  if (config.kind === 'emulator') {
    return {
      ...config,
      ...(profile && { profile }),
      ...(values.token !== undefined && { rootTokens: [values.token] }),
      ...(seed !== undefined && { seed }),
    }
  }
  return { ...config, ...(profile && { profile }), ...(values.token !== undefined && { token: values.token }) }
}

/**
 * `act`'s result; a targets file or target the flags name that cannot be read or made (TargetError,
 * ScenarioError) is a usage error.
 */
export function targetMistakesAsUsage<T>(command: string, act: () => T): T {
  const asUsage = (error: unknown): never => {
    if (error instanceof TargetError || error instanceof ScenarioError) throw new UsageError(`doppel ${command}: ${error.message}`)
    throw error
  }
  try {
    const result = act()
    return (result instanceof Promise ? result.catch(asUsage) : result) as T
  } catch (error) {
    return asUsage(error)
  }
}
