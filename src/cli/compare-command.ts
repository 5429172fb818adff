import { writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { CliIo } from '../core/cli-io.ts'
import { PROFILE_OPTION, profileFlag, SEED_OPTION, seedFlag } from './flags.ts'
import { parseOptions } from './parse-options.ts'
import { PROXY_OPTIONS, proxyFlags, startProxySession, type ProxySession } from './proxy-session.ts'

export const COMPARE_USAGE = `Usage: doppel compare --upstream <url> [options]

Forwards every request to the upstream and sends the same request to an in-process emulator; reports
each exchange where they differ (status, error text, field set, field values after normalising ids,
tokens and times) on stderr as it happens, and a table when stopped (SIGINT/SIGTERM or
POST /_doppel/record/stop). Exit code 4 when they differ, 0 when not.

Options:
  --upstream <url>      The server to compare with (required)
  --port <n>            Port to listen on (default 8300; 0 picks a free port)
  --host <addr>         Address to bind (default 127.0.0.1)
  --json <file>         Also write the differences as JSON
  --profile <name>      The emulator's profile: service (default) or vault
  --seed <n>            The emulator's random seed, for repeatable ids and tokens
  --root-token <t>      Management token the emulator accepts (default "root"; repeatable)
  --allow-sha1          Let the emulator accept SHA-1-based identity signatures
  --pid-file <path>     Write doppel's process id here while it runs (to signal it behind npx)
  --quiet               Do not log requests to stderr
  -h, --help            Show this help

Prints exactly one line "doppel comparing on http://HOST:PORT" when ready.`

/**
 * `doppel compare`: parses the arguments and starts comparing; undefined after `--help`. Stopped, the
 * session's exit code is 4 when the emulator answered differently.
 */
export async function startCompare(argv: string[], io: CliIo): Promise<ProxySession | undefined> {
  const line = parseOptions(
    'compare',
    argv,
    {
      ...PROXY_OPTIONS,
      json: { type: 'string' },
      ...PROFILE_OPTION,
      ...SEED_OPTION,
      'root-token': { type: 'string', multiple: true },
      'allow-sha1': { type: 'boolean', default: false },
    },
    COMPARE_USAGE,
    io,
  )
  if (!line) return undefined
  const { values } = line
  const { upstream, port } = proxyFlags('compare', values)
  const profile = profileFlag('compare', values.profile) ?? 'service'
  const seed = seedFlag('compare', values.seed)
  const { startComparison } = await import('../faces/record/compare/index.ts')
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
