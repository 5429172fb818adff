import { parseArgs, type ParseArgsOptionsConfig } from 'node:util'
import { describeParseError } from './describe-parse-error.ts'
import type { CliIo } from './usage-error.ts'

const HELP = { help: { type: 'boolean', short: 'h', default: false } } as const

type Values<O extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O & typeof HELP; strict: true; allowPositionals: false }>
>['values']

/** What a command line asked for: flags to act on, help (already printed), or a one-line mistake. */
export type ParsedOptions<O extends ParseArgsOptionsConfig> =
  | { kind: 'values'; values: Values<O> }
  | { kind: 'help' }
  | { kind: 'error'; message: string }

/**
 * A command's flags, strictly (no positionals, no unknown flags), with `-h/--help` added: on help the
 * usage text is printed here; a mistake is described in one line with a did-you-mean from the usage text.
 */
export function parseOptions<const O extends ParseArgsOptionsConfig>(argv: string[], options: O, usage: string, io: CliIo): ParsedOptions<O> {
  let values: Values<O>
  try {
    ;({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { ...options, ...HELP } }) as { values: Values<O> })
  } catch (error) {
    return { kind: 'error', message: describeParseError(error, usage) }
  }
  if ((values as { help?: boolean }).help) {
    io.stdout(usage + '\n')
    return { kind: 'help' }
  }
  return { kind: 'values', values }
}
