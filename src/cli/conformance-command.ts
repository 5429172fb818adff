import { resolve } from 'node:path'
import type { CliIo } from '../core/cli-io.ts'
import { CONFORMANCE_DIR, runConformance } from '../faces/conformance/index.ts'
import { baseUrlFlag } from './flags.ts'
import { parseOptions } from './parse-options.ts'
import { flagHelp, type FlagTable } from './flag-table.ts'
import { RUN_FLAGS, RUN_OPTIONS_HELP } from './run-command.ts'
import { suiteFlags, targetFlags, targetMistakesAsUsage } from './suite-flags.ts'
import { UsageError } from './usage-error.ts'

const REAL_SERVER_OPTIONS = {
  'fake-cloud-listen': {
    type: 'string',
    value: '<host:port>',
    help: 'Serve the fake cloud over HTTP for the target, configure a fresh mount of\nthe method to use it (config/client, config/certificate), remove it after',
  },
  'fake-cloud-url': { type: 'string', value: '<url>', help: 'The URL the target reaches the fake cloud at (default: the listen address)' },
  'registry-url': { type: 'string', value: '<url>', help: 'Registry base URL (an organisation with the deprecation feature)' },
  'registry-token': { type: 'string', value: '<t>', help: 'Registry API token' },
} as const satisfies FlagTable

/** Every flag of `doppel conformance`: run's, and those for a real server. */
export const CONFORMANCE_FLAGS = { ...RUN_FLAGS, ...REAL_SERVER_OPTIONS } as const satisfies FlagTable

export const CONFORMANCE_USAGE = `Usage: doppel conformance [options]

Runs the bundled conformance scenarios against the emulator or a server.

${RUN_OPTIONS_HELP}

Against a real server:
${flagHelp(REAL_SERVER_OPTIONS, 35)}`

/** `doppel conformance`: the bundled scenarios, with `run`'s options and exit codes. */
export async function conformanceCommand(argv: string[], io: CliIo): Promise<number> {
  const line = parseOptions('conformance', argv, CONFORMANCE_FLAGS, CONFORMANCE_USAGE, io)
  if (!line) return 0
  const { values } = line
  for (const flag of Object.keys(REAL_SERVER_OPTIONS) as (keyof typeof REAL_SERVER_OPTIONS)[]) {
    if (values[flag] === '') throw new UsageError(`doppel conformance: --${flag} needs a value`)
  }
  const suite = suiteFlags('conformance', values, io.cwd)
  const target = targetFlags('conformance', values, io.cwd, resolve(CONFORMANCE_DIR, 'targets.yaml'))
  const listen = values['fake-cloud-listen']
  if (listen !== undefined && !(target.kind === 'http' && target.url)) {
    throw new UsageError('doppel conformance: --fake-cloud-listen needs --target <url> of the real server')
  }
  for (const flag of ['fake-cloud-url', 'registry-url'] as const) {
    if (values[flag] !== undefined) baseUrlFlag('conformance', `--${flag}`, values[flag])
  }
  return targetMistakesAsUsage('conformance', () =>
    runConformance(
      {
        command: 'conformance',
        target,
        ...suite,
        ...(listen !== undefined && { fakeCloud: { listen, ...(values['fake-cloud-url'] !== undefined && { url: values['fake-cloud-url'] }) } }),
        ...(values['registry-url'] !== undefined && { registryUrl: values['registry-url'] }),
        ...(values['registry-token'] !== undefined && { registryToken: values['registry-token'] }),
      },
      io,
    ),
  )
}
