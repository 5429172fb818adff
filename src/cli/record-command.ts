import { resolve } from 'node:path'
import type { CliIo } from '../core/cli-io.ts'
import type { Exchange } from '../faces/record/exchange.ts'
import { SPLIT_RULES, writeScenarios, type SplitRule } from '../faces/record/write-scenarios.ts'
import { parseOptions } from './parse-options.ts'
import { PROXY_OPTIONS, proxyFlags, startProxySession, type ProxySession } from './proxy-session.ts'
import { UsageError } from './usage-error.ts'

export const RECORD_USAGE = `Usage: doppel record --upstream <url> --out <dir> [options]

Forwards every request to the upstream unchanged and, when stopped (SIGINT/SIGTERM or
POST /_doppel/record/stop), writes the exchanges as YAML scenarios that replay on the emulator,
on doppel serve and on the upstream.

Options:
  --upstream <url>      The server to record (required)
  --out <dir>           Where the scenarios go (required)
  --port <n>            Port to listen on (default 8300; 0 picks a free port)
  --host <addr>         Address to bind (default 127.0.0.1)
  --split-by <rule>     session (default: one scenario) or service (auth and registry apart)
  --name <name>         Scenario and file name (default recording-<time>)
  --pid-file <path>     Write doppel's process id here while it runs (to signal it behind npx)
  --quiet               Do not log requests to stderr
  -h, --help            Show this help

Prints exactly one line "doppel recording on http://HOST:PORT" when ready.`

/** `doppel record`: parses the arguments and starts recording; undefined after `--help`. */
export async function startRecord(argv: string[], io: CliIo): Promise<ProxySession | undefined> {
  const line = parseOptions(
    'record',
    argv,
    { ...PROXY_OPTIONS, out: { type: 'string' }, 'split-by': { type: 'string', default: 'session' }, name: { type: 'string' } },
    RECORD_USAGE,
    io,
  )
  if (!line) return undefined
  const { values } = line
  const { upstream, port } = proxyFlags('record', values)
  if (values.out === undefined) throw new UsageError('doppel record: --out <dir> is required')
  const splitBy = values['split-by'] as SplitRule
  if (!SPLIT_RULES.includes(splitBy)) throw new UsageError(`doppel record: --split-by must be one of ${SPLIT_RULES.join(', ')}, not "${splitBy}"`)
  const out = resolve(io.cwd, values.out)
  const exchanges: Exchange[] = []
  return startProxySession(
    'record',
    {
      upstream,
      port,
      host: values.host,
      quiet: values.quiet,
      ...(values['pid-file'] !== undefined && { pidFile: values['pid-file'] }),
      onExchange: (exchange) => void exchanges.push(exchange),
      finish: async () => {
        const files = await writeScenarios(exchanges, { out, splitBy, ...(values.name !== undefined && { name: values.name }) })
        io.stderr(files.length === 0 ? 'doppel record: nothing recorded\n' : files.map((file) => `doppel record: wrote ${file}\n`).join(''))
        return 0
      },
    },
    io,
  )
}
