/**
 * `doppel record` and `doppel compare`: the forwarding proxy on a port, stopped by SIGINT/SIGTERM or
 * `POST /_doppel/record/stop`. record writes scenarios; compare reports where the emulator differs.
 */
import { resolve } from 'node:path'
import { createDoppelServer, listen, type RunningServer } from '../faces/server/doppel-server.ts'
import { parseOptions } from './parse-options.ts'
import type { CliIo } from './usage-error.ts'
import type { Exchange } from '../faces/record/exchange.ts'
import { forwardingProxy } from '../faces/record/forwarding-proxy.ts'
import { SPLIT_RULES, writeScenarios, type SplitRule } from '../faces/record/write-scenarios.ts'
import { DoppelError } from '../core/doppel-error.ts'
import { untilStopped, writePidFile } from './stop-on-signal.ts'

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
  --root-token <t>      Management token the emulator accepts (default "root"; repeatable)
  --allow-sha1          Let the emulator accept SHA-1-based identity signatures
  --pid-file <path>     Write doppel's process id here while it runs (to signal it behind npx)
  --quiet               Do not log requests to stderr
  -h, --help            Show this help

Prints exactly one line "doppel comparing on http://HOST:PORT" when ready.`

export interface ProxySession {
  url: string
  /** Stops listening and finishes (writes scenarios, or the report); resolves with the exit code. */
  stop(): Promise<number>
  /** Resolves once a stop was asked for over HTTP (`POST /_doppel/record/stop`). */
  readonly stopRequested: Promise<void>
}

class ProxyUsageError extends DoppelError {
  constructor(message: string) {
    super('DOPPEL_USAGE', message)
  }
}

/** The CLI: resolves with the exit code once stopped. */
export async function proxyCommand(command: 'record' | 'compare', argv: string[], io: CliIo): Promise<number> {
  let session: ProxySession | undefined
  try {
    session = await startProxyCommand(command, argv, io)
  } catch (error) {
    if (!(error instanceof ProxyUsageError)) throw error
    io.stderr(`doppel ${command}: ${error.message}\n`)
    return 1
  }
  if (!session) return 0
  await untilStopped(session.stopRequested)
  return session.stop()
}

/** Parses the arguments and starts the proxy; undefined after `--help`. Throws ProxyUsageError. */
export async function startProxyCommand(command: 'record' | 'compare', argv: string[], io: CliIo): Promise<ProxySession | undefined> {
  const parsed = parseOptions(
    argv,
    {
      upstream: { type: 'string' },
      out: { type: 'string' },
      port: { type: 'string', default: '8300' },
      host: { type: 'string', default: '127.0.0.1' },
      'split-by': { type: 'string', default: 'session' },
      name: { type: 'string' },
      json: { type: 'string' },
      profile: { type: 'string', default: 'service' },
      'root-token': { type: 'string', multiple: true },
      'allow-sha1': { type: 'boolean', default: false },
      'pid-file': { type: 'string' },
      quiet: { type: 'boolean', default: false },
    },
    command === 'record' ? RECORD_USAGE : COMPARE_USAGE,
    io,
  )
  if (parsed.kind === 'error') throw new ProxyUsageError(parsed.message)
  if (parsed.kind === 'help') return undefined
  const { values } = parsed
  const upstream = values.upstream
  if (upstream === undefined) throw new ProxyUsageError('--upstream <url> is required')
  if (!/^https?:\/\/[^/]+/.test(upstream) || !URL.canParse(upstream)) throw new ProxyUsageError(`--upstream must be an http(s) URL, not "${upstream}"`)
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ProxyUsageError(`--port must be a port number from 0 to 65535, not "${values.port}"`)
  const recordOnly = ['out', 'split-by', 'name'] as const
  const compareOnly = ['json', 'root-token'] as const
  for (const flag of command === 'record' ? compareOnly : recordOnly) {
    if (values[flag] !== undefined && !(flag === 'split-by' && values[flag] === 'session')) throw new ProxyUsageError(`--${flag} is not an option of doppel ${command}`)
  }
  if (command === 'record' && (values['allow-sha1'] || values.profile !== 'service')) {
    throw new ProxyUsageError(`--${values['allow-sha1'] ? 'allow-sha1' : 'profile'} is not an option of doppel record`)
  }
  if (command === 'record' && values.out === undefined) throw new ProxyUsageError('--out <dir> is required')
  const splitBy = values['split-by'] as SplitRule
  if (!SPLIT_RULES.includes(splitBy)) throw new ProxyUsageError(`--split-by must be one of ${SPLIT_RULES.join(', ')}, not "${splitBy}"`)
  if (values.profile !== 'service' && values.profile !== 'vault') throw new ProxyUsageError(`--profile must be service or vault, not "${values.profile}"`)

  let onExchange: (exchange: Exchange) => void | Promise<void>
  let finish: () => Promise<number>
  if (command === 'record') {
    const exchanges: Exchange[] = []
    onExchange = (exchange) => void exchanges.push(exchange)
    const out = resolve(io.cwd, values.out!)
    finish = async () => {
      const files = await writeScenarios(exchanges, { out, splitBy, ...(values.name !== undefined && { name: values.name }) })
      io.stderr(files.length === 0 ? 'doppel record: nothing recorded\n' : files.map((file) => `doppel record: wrote ${file}\n`).join(''))
      return 0
    }
  } else {
    const { startComparison } = await import('../faces/record/compare/index.ts')
    const comparison = startComparison({
      profile: values.profile,
      rootTokens: values['root-token'] ?? ['root'],
      allowSha1: values['allow-sha1'],
      onDifference: (line) => io.stderr(line + '\n'),
    })
    onExchange = (exchange) => comparison.add(exchange)
    finish = async () => {
      const report = comparison.report()
      io.stdout(report.table)
      if (values.json !== undefined) {
        const { writeFile } = await import('node:fs/promises')
        await writeFile(resolve(io.cwd, values.json), JSON.stringify(report.json, null, 2) + '\n')
      }
      return report.json.differing > 0 ? 4 : 0
    }
  }

  let requestStop!: () => void
  const stopRequested = new Promise<void>((done) => (requestStop = done))
  const proxy = forwardingProxy({ upstream, onExchange, onStop: () => requestStop() })
  const log = values.quiet
    ? undefined
    : (line: { method: string; path: string; status: number; ms: number }) => io.stderr(`${line.method} ${line.path} ${line.status} ${line.ms.toFixed(1)}ms\n`)
  let server: RunningServer
  try {
    server = await listen(createDoppelServer(proxy, { onRequest: log }), port, values.host)
  } catch (error) {
    throw new ProxyUsageError(`cannot listen on ${values.host}:${port}: ${(error as Error).message}`)
  }
  let removePidFile: (() => void) | undefined
  if (values['pid-file'] !== undefined) {
    try {
      removePidFile = writePidFile(resolve(io.cwd, values['pid-file']))
    } catch (error) {
      await server.close()
      throw new ProxyUsageError(`cannot write --pid-file: ${(error as Error).message}`)
    }
  }
  io.stdout(`doppel ${command === 'record' ? 'recording' : 'comparing'} on ${server.url}\n`)
  let stopping: Promise<number> | undefined
  return {
    url: server.url,
    stopRequested,
    stop: () =>
      (stopping ??= (async () => {
        await server.close()
        try {
          return await finish()
        } finally {
          removePidFile?.()
        }
      })()),
  }
}
