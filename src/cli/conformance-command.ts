import { resolve } from 'node:path'
import type { CliIo } from '../core/cli-io.ts'
import { CONFORMANCE_DIR, runConformance } from '../faces/conformance/run-conformance.ts'
import { baseUrlFlag } from './flags.ts'
import { parseOptions } from './parse-options.ts'
import { RUN_OPTIONS_HELP } from './run-command.ts'
import { SUITE_OPTIONS, suiteFlags, TARGET_OPTIONS, targetFlags, targetMistakesAsUsage } from './suite-flags.ts'
import { UsageError } from './usage-error.ts'

export const CONFORMANCE_USAGE = `Usage: doppel conformance [options]

Runs the bundled conformance scenarios against the emulator or a server.

${RUN_OPTIONS_HELP}

Against a real server:
  --fake-cloud-listen <host:port>  Serve the fake cloud over HTTP for the target, configure a fresh mount of
                                   the method to use it (config/client, config/certificate), remove it after
  --fake-cloud-url <url>           The URL the target reaches the fake cloud at (default: the listen address)
  --registry-url <url>             Registry base URL (an organisation with the deprecation feature)
  --registry-token <t>             Registry API token`

const REAL_SERVER_OPTIONS = {
  'fake-cloud-listen': { type: 'string' },
  'fake-cloud-url': { type: 'string' },
  'registry-url': { type: 'string' },
  'registry-token': { type: 'string' },
} as const

/** `doppel conformance`: the bundled scenarios, with `run`'s options and exit codes. */
export async function conformanceCommand(argv: string[], io: CliIo): Promise<number> {
  const line = parseOptions('conformance', argv, { ...TARGET_OPTIONS, ...SUITE_OPTIONS, ...REAL_SERVER_OPTIONS }, CONFORMANCE_USAGE, io)
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
