import type { CliIo } from '../core/cli-io.ts'
import { findScenarioFiles, runSuite } from '../faces/scenario/index.ts'
import { parseOptions } from './parse-options.ts'
import { flagHelp, HELP_FLAG, type FlagTable } from './flag-table.ts'
import { SUITE_HELP_COLUMN, SUITE_OPTIONS, suiteFlags, TARGET_OPTIONS, targetFlags, targetMistakesAsUsage } from './suite-flags.ts'
import { UsageError } from './usage-error.ts'

/** Every flag of `doppel run` (and the first part of `doppel conformance`'s). */
export const RUN_FLAGS = { ...TARGET_OPTIONS, ...SUITE_OPTIONS } as const satisfies FlagTable

/** The options part of `doppel run --help`, which `doppel conformance` shares. */
export const RUN_OPTIONS_HELP = `Options:
${flagHelp({ ...RUN_FLAGS, ...HELP_FLAG }, SUITE_HELP_COLUMN)}

Exit codes: 0 all passed, 1 usage, 2 invalid scenario, 3 target unreachable, 4 failures.
The last line is "N passed, N failed, N skipped", counted in scenarios.`

export const RUN_USAGE = `Usage: doppel run <files|dirs...> [options]

Runs YAML scenarios against the emulator or a server. Every file is validated before anything runs.

${RUN_OPTIONS_HELP}`

/** `doppel run <files|dirs...>`: validates every scenario, then runs them against the target; the exit code. */
export async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const line = parseOptions('run', argv, RUN_FLAGS, RUN_USAGE, io, { positionals: true })
  if (!line) return 0
  const { values, positionals } = line
  if (positionals.length === 0) throw new UsageError('doppel run: name at least one scenario file or directory')
  const suite = suiteFlags('run', values, io.cwd)
  const target = targetFlags('run', values, io.cwd)
  let files: string[]
  try {
    files = findScenarioFiles(positionals, io.cwd)
  } catch (error) {
    throw new UsageError(`doppel run: ${(error as Error).message}`)
  }
  if (files.length === 0) throw new UsageError(`doppel run: no scenario files (*.yaml) in ${positionals.join(', ')}`)
  return targetMistakesAsUsage('run', () => runSuite({ command: 'run', files, target, ...suite }, io))
}
