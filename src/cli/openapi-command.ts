import type { CliIo } from '../core/cli-io.ts'
import { openApiDocument } from '../features/openapi/index.ts'
import { PROFILE_OPTION, profileFlag } from './flags.ts'
import { flagHelp, HELP_FLAG, type FlagTable } from './flag-table.ts'
import { parseOptions } from './parse-options.ts'

/** Every flag of `doppel openapi`. */
export const OPENAPI_FLAGS = { ...PROFILE_OPTION } as const satisfies FlagTable

export const OPENAPI_USAGE = `Usage: doppel openapi [--profile service|vault]

Prints the OpenAPI 3.1 document of both emulated services (the same as GET /_doppel/openapi.json).

Options:
${flagHelp({ ...OPENAPI_FLAGS, ...HELP_FLAG })}`

/** `doppel openapi`: prints the document. */
export async function openApiCommand(argv: string[], io: CliIo): Promise<number> {
  const line = parseOptions('openapi', argv, OPENAPI_FLAGS, OPENAPI_USAGE, io)
  if (!line) return 0
  const profile = profileFlag('openapi', line.values.profile) ?? 'service'
  io.stdout(JSON.stringify(await openApiDocument({ profile }), null, 2) + '\n')
  return 0
}
