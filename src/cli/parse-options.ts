import { parseArgs, type ParseArgsOptionsConfig } from 'node:util'
import type { CliIo } from '../core/cli-io.ts'
import { describeParseError } from './describe-parse-error.ts'
import { HELP_FLAG as HELP } from './flag-table.ts'
import { UsageError } from './usage-error.ts'

type Values<O extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O & typeof HELP; strict: true; allowPositionals: true }>
>['values']

/** What a command line asked for: its flags and, for commands that take them, its positional arguments. */
export interface CommandLine<O extends ParseArgsOptionsConfig> {
  values: Values<O>
  positionals: string[]
}

/**
 * A command's flags, strictly (no unknown flags; positionals only when the command takes them), with
 * `-h/--help` added. Undefined after help (the usage text is printed here); a mistake throws a one-line
 * UsageError with a did-you-mean from the usage text.
 */
export function parseOptions<const O extends ParseArgsOptionsConfig>(
  command: string,
  argv: string[],
  options: O,
  usage: string,
  io: CliIo,
  { positionals: allowPositionals = false } = {},
): CommandLine<O> | undefined {
  let parsed: CommandLine<O>
  try {
    parsed = parseArgs({ args: argv, strict: true, allowPositionals, options: { ...options, ...HELP } }) as CommandLine<O>
  } catch (error) {
    throw new UsageError(`doppel ${command}: ${describeParseError(error, usage)}`)
  }
  if ((parsed.values as { help?: boolean }).help) {
    io.stdout(usage + '\n')
    return undefined
  }
  return parsed
}
