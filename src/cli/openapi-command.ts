import { parseArgs } from 'node:util'
import { openApiDocument } from '../openapi/index.ts'
import { describeParseError } from './describe-parse-error.ts'
import type { CliIo } from './usage-error.ts'

export const OPENAPI_USAGE = `Usage: doppel openapi [--profile service|vault]

Prints the OpenAPI 3.1 document of both emulated services (the same as GET /_doppel/openapi.json).`

/** `doppel openapi`: prints the document; 1 on a usage error. */
export function openApiCommand(argv: string[], io: CliIo): number {
  let values
  try {
    ;({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: { profile: { type: 'string', default: 'service' }, help: { type: 'boolean', short: 'h', default: false } },
    }))
  } catch (error) {
    io.stderr(`doppel openapi: ${describeParseError(error, OPENAPI_USAGE)}\n`)
    return 1
  }
  if (values.help) {
    io.stdout(OPENAPI_USAGE + '\n')
    return 0
  }
  if (values.profile !== 'service' && values.profile !== 'vault') {
    io.stderr(`doppel openapi: --profile must be service or vault, not "${values.profile}"\n`)
    return 1
  }
  io.stdout(JSON.stringify(openApiDocument({ profile: values.profile }), null, 2) + '\n')
  return 0
}
