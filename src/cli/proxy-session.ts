/**
 * What `doppel record` and `doppel compare` share: the forwarding proxy on a port, logging requests,
 * stopped by SIGINT/SIGTERM, the end of the npm process that started it, or `POST /_doppel/record/stop`.
 */
import type { CliIo } from '../core/cli-io.ts'
import { type Exchange, forwardingProxy } from '../faces/record/index.ts'
import { createDoppelServer, listen, type RunningServer, writePidFile } from '../faces/server/index.ts'
import { resolve } from 'node:path'
import { baseUrlFlag, PID_FILE_OPTION, portFlag, QUIET_OPTION } from './flags.ts'
import type { StopWatch } from './stop-on-signal.ts'
import { StartupError, UsageError } from './usage-error.ts'

/** `--upstream <url>`, which `record` and `compare` require. */
export const UPSTREAM_OPTION = { upstream: { type: 'string', value: '<url>', help: 'The server to forward to (required)' } } as const

/** The flags `record` and `compare` share, after their own in the help. */
export const PROXY_TAIL_OPTIONS = { ...PID_FILE_OPTION, ...QUIET_OPTION } as const

/** The end of `record`'s and `compare`'s help: the ready line. */
export const proxyReadyLine = (verb: 'recording' | 'comparing'): string => `Prints exactly one line "doppel ${verb} on http://HOST:PORT" when ready.`

export interface ProxySession {
  url: string
  /** Stops listening and finishes (writes scenarios, or the report); resolves with the exit code. */
  stop(): Promise<number>
  /** Resolves once a stop was asked for over HTTP (`POST /_doppel/record/stop`). */
  readonly stopRequested: Promise<void>
}

/** The proxy flags, checked, before the command's own: `--upstream` is required and a base URL. */
export function proxyFlags(command: 'record' | 'compare', values: { upstream?: string; port: string }): { upstream: string; port: number } {
  if (values.upstream === undefined) throw new UsageError(`doppel ${command}: --upstream <url> is required`)
  return { upstream: baseUrlFlag(command, '--upstream', values.upstream), port: portFlag(command, '--port', values.port) }
}

interface SessionOptions {
  upstream: string
  port: number
  host: string
  quiet: boolean
  /** `--pid-file`: written once listening, removed once stopped. */
  pidFile?: string
  onExchange: (exchange: Exchange) => void | Promise<void>
  /** After the proxy stopped: writes what the command made of the exchanges; the exit code. */
  finish: () => Promise<number>
}

/** Starts the proxy and prints its one ready line. */
export async function startProxySession(command: 'record' | 'compare', options: SessionOptions, io: CliIo): Promise<ProxySession> {
  let requestStop!: () => void
  const stopRequested = new Promise<void>((done) => (requestStop = done))
  const proxy = forwardingProxy({ upstream: options.upstream, onExchange: options.onExchange, onStop: () => requestStop() })
  const log = options.quiet
    ? undefined
    : (line: { method: string; path: string; status: number; ms: number }) => io.stderr(`${line.method} ${line.path} ${line.status} ${line.ms.toFixed(1)}ms\n`)
  let server: RunningServer
  try {
    server = await listen(createDoppelServer(proxy, { onRequest: log }), options.port, options.host)
  } catch (error) {
    throw new StartupError(`doppel ${command}: cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`)
  }
  let removePidFile: (() => Promise<void>) | undefined
  if (options.pidFile !== undefined) {
    try {
      removePidFile = writePidFile(resolve(io.cwd, options.pidFile))
    } catch (error) {
      await server.close()
      throw new StartupError(`doppel ${command}: cannot write --pid-file: ${(error as Error).message}`)
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
          return await options.finish()
        } finally {
          await removePidFile?.()
        }
      })()),
  }
}

/** Waits for a stop (a signal, npm's parent gone, or a stop over HTTP), then stops; the exit code. 0 after `--help`. */
export async function runUntilStopped(session: ProxySession | undefined, stop: StopWatch): Promise<number> {
  if (!session) return 0
  await Promise.race([stop.stopped, session.stopRequested])
  stop.dispose()
  return session.stop()
}
