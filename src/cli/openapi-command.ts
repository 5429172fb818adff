import { openApiDocument } from '../features/openapi/index.ts'
import { parseOptions } from './parse-options.ts'
import type { CliIo } from './usage-error.ts'

export const OPENAPI_USAGE = `Usage: doppel openapi [--profile service|vault]

Prints the OpenAPI 3.1 document of both emulated services (the same as GET /_doppel/openapi.json).`

/** `doppel openapi`: prints the document; 1 on a usage error. */
export function openApiCommand(argv: string[], io: CliIo): number {
  const parsed = parseOptions(argv, { profile: { type: 'string', default: 'service' } }, OPENAPI_USAGE, io)
  if (parsed.kind === 'error') {
    io.stderr(`doppel openapi: ${parsed.message}\n`)
    return 1
  }
  if (parsed.kind === 'help') return 0
  const { values } = parsed
  if (values.profile !== 'service' && values.profile !== 'vault') {
    io.stderr(`doppel openapi: --profile must be service or vault, not "${values.profile}"\n`)
    return 1
  }
  io.stdout(JSON.stringify(openApiDocument({ profile: values.profile }), null, 2) + '\n')
  return 0
}
