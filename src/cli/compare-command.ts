import { writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { CliIo } from '../core/cli-io.ts'
import { flagHelp, HELP_FLAG, type FlagTable } from './flag-table.ts'
import { listenOptions, PROFILE_OPTION, profileFlag, SEED_OPTION, seedFlag } from './flags.ts'
import { parseOptions } from './parse-options.ts'
import { PROXY_TAIL_OPTIONS, proxyFlags, proxyReadyLine, startProxySession, UPSTREAM_OPTION, type ProxySession } from './proxy-session.ts'

/** Every flag of `doppel compare`. */
export const COMPARE_FLAGS = {
  upstream: { ...UPSTREAM_OPTION.upstream, help: 'The server to compare with (required)' },
  ...listenOptions('8300'),
  json: { type: 'string', value: '<file>', help: 'Also write the differences as JSON' },
  profile: { ...PROFILE_OPTION.profile, help: "The emulator's profile: service (default) or vault" },
  seed: { ...SEED_OPTION.seed, help: "The emulator's random seed, for repeatable ids and tokens" },
  'root-token': { type: 'string', multiple: true, value: '<t>', help: 'Management token the emulator accepts (default "root"; repeatable)' },
  'allow-sha1': { type: 'boolean', default: false, help: 'Let the emulator accept SHA-1-based identity signatures' },
  ...PROXY_TAIL_OPTIONS,
} as const satisfies FlagTable

export const COMPARE_USAGE = `Usage: doppel compare --upstream <url> [options]

Forwards every request to the upstream and sends the same request to an in-process emulator; reports
each exchange where they differ (status, error text, field set, field values after normalising ids,
tokens and times) on stderr as it happens, and a table when stopped (SIGINT/SIGTERM or
POST /_doppel/record/stop). Exit code 4 when they differ, 0 when not.

Options:
${flagHelp({ ...COMPARE_FLAGS, ...HELP_FLAG })}

${proxyReadyLine('comparing')}`

/**
 * `doppel compare`: parses the arguments and starts comparing; undefined after `--help`. Stopped, the
 * session's exit code is 4 when the emulator answered differently.
 */
export async function startCompare(argv: string[], io: CliIo): Promise<ProxySession | undefined> {
  const line = parseOptions('compare', argv, COMPARE_FLAGS, COMPARE_USAGE, io)
  if (!line) return undefined
  const { values } = line
  const { upstream, port } = proxyFlags('compare', values)
  const profile = profileFlag('compare', values.profile) ?? 'service'
  const seed = seedFlag('compare', values.seed)
  const { startComparison } = await import('../faces/record/index.ts')
  const comparison = startComparison({
    profile,
    ...(seed !== undefined && { seed }),
    rootTokens: values['root-token'] ?? ['root'],
    allowSha1: values['allow-sha1'],
    onDifference: (line) => io.stderr(line + '\n'),
  })
  return startProxySession(
    'compare',
    {
      upstream,
      port,
      host: values.host,
      quiet: values.quiet,
      ...(values['pid-file'] !== undefined && { pidFile: values['pid-file'] }),
      onExchange: (exchange) => comparison.add(exchange),
      finish: async () => {
        const report = comparison.report()
        io.stdout(report.table)
        if (values.json !== undefined) await writeFile(resolve(io.cwd, values.json), JSON.stringify(report.json, null, 2) + '\n')
        return report.json.differing > 0 ? 4 : 0
      },
    },
    io,
  )
}
