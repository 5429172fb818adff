import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import type { Scenario } from '../faces/scenario/glossary.ts'
import { findScenarioFiles } from '../faces/scenario/load/find-scenario-files.ts'
import { loadScenarioFile } from '../faces/scenario/load/parse-scenario.ts'
import { createReporter, REPORTERS, type ReporterName } from '../faces/scenario/reporters/index.ts'
import { LabelExpressionError, parseLabelExpression } from '../faces/scenario/runner/labels.ts'
import { runScenarios, type RunEvents } from '../faces/scenario/runner/run-scenarios.ts'
import { ScenarioError } from '../features/documents/document-error.ts'
import { createTarget, type TargetConfig } from '../faces/scenario/targets/create-target.ts'
import { TargetError, TargetUnreachableError } from '../faces/scenario/targets/target.ts'
import { loadTargetsFile } from '../faces/scenario/targets/targets-file.ts'
import { describeParseError } from './describe-parse-error.ts'
import { startVaultBridge, type VaultBridge } from '../faces/conformance/vault-bridge.ts'
import { errorKind } from '../core/doppel-error.ts'

export interface CommandIo {
  stdout: (s: string) => void
  stderr: (s: string) => void
  cwd: string
}

/** Exit codes, as CI tells "the server is down" from "the server is wrong". */
export const EXIT = { passed: 0, usage: 1, invalid: 2, unreachable: 3, failed: 4 } as const

const OPTIONS_HELP = `Options:
  --target <t>       emulator (default), a server URL, or a name from --targets
  --targets <file>   A targets.yaml naming several targets (\${VAR} expands from the environment;
                     doppel conformance reads conformance/targets.yaml when there is one)
  --profile <p>      service (default) or vault, for the emulator and URL targets
  --token <t>        Management token for a URL target (default "root" on doppel serve)
  --seed <n>         Seed of the emulator instances (default 1)
  --var <k=v>        Set a scenario var; repeatable
  --label <expr>     Only scenarios whose labels match, e.g. 'ec2 and not iam'
  --jobs <n>         Scenarios run at once (default 1)
  --fail-fast        Start no scenario after one fails
  --reporter <r>     pretty (default), junit, json or tap
  --out <file>       Write the report to a file; progress still goes to stdout
  --list             List the scenarios that would run, and exit
  -h, --help         Show this help

Exit codes: 0 all passed, 1 usage, 2 invalid scenario, 3 target unreachable, 4 failures.
The last line is "N passed, N failed, N skipped", counted in scenarios.`

export const RUN_USAGE = `Usage: doppel run <files|dirs...> [options]

Runs YAML scenarios against the emulator or a server. Every file is validated before anything runs.

${OPTIONS_HELP}`

export const CONFORMANCE_USAGE = `Usage: doppel conformance [options]

Runs the bundled conformance scenarios against the emulator or a server.

${OPTIONS_HELP}

Against a real server:
  --fake-cloud-listen <host:port>  Serve the fake cloud over HTTP for the target, configure a fresh mount of
                                   the method to use it (config/client, config/certificate), remove it after
  --fake-cloud-url <url>           The URL the target reaches the fake cloud at (default: the listen address)
  --registry-url <url>             Registry base URL (an organisation with the deprecation feature)
  --registry-token <t>             Registry API token`

const PARSE_OPTIONS = {
  target: { type: 'string' },
  targets: { type: 'string' },
  profile: { type: 'string' },
  token: { type: 'string' },
  seed: { type: 'string' },
  var: { type: 'string', multiple: true },
  label: { type: 'string' },
  jobs: { type: 'string' },
  'fail-fast': { type: 'boolean', default: false },
  reporter: { type: 'string', default: 'pretty' },
  out: { type: 'string' },
  list: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const

class UsageProblem extends errorKind('UsageProblem', 'DOPPEL_USAGE') {}

/**
 * `doppel run <files|dirs...>`: validates every scenario, then runs them against the target.
 * Resolves with the exit code (see EXIT).
 */
export async function runCommand(argv: string[], io: CommandIo): Promise<number> {
  return execute(argv, io, { usage: RUN_USAGE, command: 'run' })
}

/** `doppel conformance`: the bundled `conformance/` scenarios, with `run`'s options and exit codes. */
export async function conformanceCommand(argv: string[], io: CommandIo): Promise<number> {
  const directory = fileURLToPath(new URL('../../conformance/', import.meta.url))
  const mode: Mode = { usage: CONFORMANCE_USAGE, command: 'conformance', paths: [directory], targets: resolve(directory, 'targets.yaml') }
  let split
  try {
    split = splitRealServerFlags(argv)
  } catch (error) {
    io.stderr(`doppel conformance: ${(error as Error).message}\nRun "doppel conformance --help" for usage.\n`)
    return EXIT.usage
  }
  const { flags, rest } = split
  let bridge: VaultBridge | undefined
  if (flags['fake-cloud-listen'] !== undefined) {
    const loose = parseArgs({ args: rest, options: PARSE_OPTIONS, allowPositionals: true, strict: false }).values
    const url = typeof loose.target === 'string' ? loose.target : ''
    if (!/^https?:\/\//.test(url)) {
      io.stderr('doppel conformance: --fake-cloud-listen needs --target <url> of the real server\n')
      return EXIT.usage
    }
    try {
      bridge = await startVaultBridge({
        vaultUrl: url,
        token: typeof loose.token === 'string' ? loose.token : 'root',
        listen: flags['fake-cloud-listen'],
        ...(flags['fake-cloud-url'] !== undefined && { advertiseUrl: flags['fake-cloud-url'] }),
      })
    } catch (error) {
      io.stderr(`doppel conformance: ${(error as Error).message}\n`)
      return error instanceof TypeError ? EXIT.unreachable : EXIT.usage
    }
    io.stderr(`doppel conformance: fake cloud on ${bridge.cloudUrl}, mount ${bridge.mount}\n`)
  }
  const registryUrl = flags['registry-url']
  const registryToken = flags['registry-token']
  mode.override = (config) =>
    config.kind !== 'http'
      ? config
      : {
          ...config,
          ...(bridge && { mount: bridge.mount, cloudUrl: bridge.controlUrl, capabilities: ['auth', 'fake-cloud'] }),
          ...(registryUrl !== undefined && { registryUrl }),
          ...(registryToken !== undefined && { registryToken }),
        }
  try {
    return await execute(rest, io, mode)
  } finally {
    await bridge?.close()
  }
}

const REAL_SERVER_FLAGS = ['fake-cloud-listen', 'fake-cloud-url', 'registry-url', 'registry-token'] as const
type RealServerFlag = (typeof REAL_SERVER_FLAGS)[number]

/** Takes the conformance-only flags (`--fake-cloud-listen host:port`, `--registry-url`, …) out of argv. */
export function splitRealServerFlags(argv: string[]): { flags: Partial<Record<RealServerFlag, string>>; rest: string[] } {
  const flags: Partial<Record<RealServerFlag, string>> = {}
  const rest: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const name = REAL_SERVER_FLAGS.find((flag) => arg === `--${flag}` || arg.startsWith(`--${flag}=`))
    if (!name) {
      rest.push(arg)
      continue
    }
    const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i]
    if (value === undefined || value === '') throw new Error(`--${name} needs a value`)
    flags[name] = value
  }
  return { flags, rest }
}

interface Mode {
  usage: string
  command: string
  /** Fixed scenario paths (conformance); otherwise the positional arguments. */
  paths?: string[]
  /** A targets file used when --targets is not given and it exists. */
  targets?: string
  /** Adjusts the target config (conformance against a real server). */
  override?: (config: TargetConfig) => TargetConfig
}

async function execute(argv: string[], io: CommandIo, mode: Mode): Promise<number> {
  try {
    return await executeOrThrow(argv, io, mode)
  } catch (error) {
    if (error instanceof UsageProblem || error instanceof LabelExpressionError) {
      io.stderr(`doppel ${mode.command}: ${error.message}\nRun "doppel ${mode.command} --help" for usage.\n`)
      return EXIT.usage
    }
    throw error
  }
}

async function executeOrThrow(argv: string[], io: CommandIo, mode: Mode): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({ args: argv, options: PARSE_OPTIONS, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageProblem(describeParseError(error, mode.usage))
  }
  const { values, positionals } = parsed
  if (values.help) {
    io.stdout(`${mode.usage}\n`)
    return EXIT.passed
  }
  if (mode.paths && positionals.length > 0) throw new UsageProblem(`unexpected argument "${positionals[0]}"`)
  const paths = mode.paths ?? positionals
  if (paths.length === 0) throw new UsageProblem('name at least one scenario file or directory')
  if (!(REPORTERS as readonly string[]).includes(values.reporter)) {
    throw new UsageProblem(`--reporter must be one of ${REPORTERS.join(', ')}, not "${values.reporter}"`)
  }
  if (values.profile !== undefined && values.profile !== 'service' && values.profile !== 'vault') {
    throw new UsageProblem(`--profile must be service or vault, not "${values.profile}"`)
  }
  const jobs = values.jobs === undefined ? 1 : Number(values.jobs)
  if (!Number.isInteger(jobs) || jobs < 1) throw new UsageProblem(`--jobs must be a positive integer, not "${values.jobs}"`)
  const vars: Record<string, string> = {}
  for (const pair of values.var ?? []) {
    const at = pair.indexOf('=')
    if (at <= 0) throw new UsageProblem(`--var takes name=value, not "${pair}"`)
    vars[pair.slice(0, at)] = pair.slice(at + 1)
  }
  const filter = values.label === undefined ? undefined : parseLabelExpression(values.label)

  let files: string[]
  try {
    files = findScenarioFiles(paths, io.cwd)
  } catch (error) {
    throw new UsageProblem((error as Error).message)
  }
  if (files.length === 0) throw new UsageProblem(`no scenario files (*.yaml) in ${paths.join(', ')}`)

  const scenarios: Scenario[] = []
  const problems: string[] = []
  for (const file of files) {
    try {
      scenarios.push(loadScenarioFile(file, display(file, io.cwd)))
    } catch (error) {
      if (!(error instanceof ScenarioError)) throw error
      problems.push(...error.lines())
    }
  }
  if (problems.length > 0) {
    io.stderr(`${problems.join('\n')}\n${problems.length} problem${problems.length === 1 ? '' : 's'} found; nothing was run.\n`)
    return EXIT.invalid
  }
  const selected = filter ? scenarios.filter((scenario) => filter(scenario.labels)) : scenarios
  if (values.list) {
    for (const scenario of selected) {
      io.stdout(`${scenario.file}  ${scenario.name}${scenario.labels.length > 0 ? `  [${scenario.labels.join(', ')}]` : ''}\n`)
    }
    io.stdout(`${selected.length} scenario${selected.length === 1 ? '' : 's'}\n`)
    return EXIT.passed
  }

  let target
  try {
    const config = targetConfig(values, io, mode.targets)
    target = await createTarget(mode.override ? mode.override(config) : config)
  } catch (error) {
    if (error instanceof TargetUnreachableError) {
      io.stderr(`doppel ${mode.command}: ${error.message}\n`)
      return EXIT.unreachable
    }
    if (error instanceof TargetError || error instanceof ScenarioError) throw new UsageProblem(error.message)
    throw error
  }

  const reporter = values.reporter as ReporterName
  const reporters: RunEvents[] = []
  let report = ''
  if (values.out === undefined) {
    reporters.push(createReporter(reporter, io.stdout))
  } else {
    reporters.push(createReporter(reporter, (text) => (report += text)))
    if (reporter !== 'pretty') reporters.push(createReporter('pretty', io.stdout))
  }
  try {
    const result = await runScenarios(selected, { target, vars, jobs, failFast: values['fail-fast'], reporters })
    if (values.out !== undefined) {
      const out = resolve(io.cwd, values.out)
      mkdirSync(dirname(out), { recursive: true })
      writeFileSync(out, report)
    }
    return result.failed > 0 ? EXIT.failed : EXIT.passed
  } finally {
    await target.close()
  }
}

function targetConfig(values: { target?: string; targets?: string; profile?: string; token?: string; seed?: string }, io: CommandIo, defaultTargets?: string): TargetConfig {
  const name = values.target ?? 'emulator'
  const profile = values.profile as 'service' | 'vault' | undefined
  const targetsPath = values.targets !== undefined ? resolve(io.cwd, values.targets) : defaultTargets && existsSync(defaultTargets) ? defaultTargets : undefined
  const file = targetsPath === undefined || /^https?:\/\//.test(name) ? undefined : loadTargetsFile(targetsPath)
  let config: TargetConfig
  if (file && (file.names.includes(name) || name !== 'emulator')) {
    config = file.resolve(name)
  } else if (name === 'emulator') {
    config = { kind: 'emulator' }
  } else if (/^https?:\/\//.test(name)) {
    config = { kind: 'http', url: name, name }
  } else {
    throw new UsageProblem(`--target must be emulator or a URL (or a name with --targets), not "${name}"`)
  }
  if (config.kind === 'emulator') {
    return {
      ...config,
      ...(profile && { profile }),
      ...(values.token !== undefined && { rootTokens: [values.token] }),
      ...(values.seed !== undefined && { seed: values.seed }),
    }
  }
  return { ...config, ...(profile && { profile }), ...(values.token !== undefined && { token: values.token }) }
}

function display(file: string, cwd: string): string {
  const shown = relative(cwd, file)
  return shown.startsWith('..') ? file : shown
}
