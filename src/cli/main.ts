import { readFileSync } from 'node:fs'
import { didYouMean } from '../core/did-you-mean.ts'
import { serve } from './serve-command.ts'
import type { CliIo } from '../core/cli-io.ts'
import type { ProxySession } from './proxy-session.ts'
import { watchForStop } from './stop-on-signal.ts'
import { StartupError, UsageError } from './usage-error.ts'

const COMMANDS = ['serve', 'run', 'conformance', 'conformance-vault', 'record', 'compare', 'openapi', 'help', '--help', '--version'] as const

const USAGE = `Usage: doppel <command> [options]

Commands:
  serve               Serve both services, the fake cloud and the control API over HTTP
  run                 Run YAML scenarios against the emulator or a server
  conformance         Run the bundled conformance suite against the emulator or a server
  conformance-vault   Run the conformance suite against a real Vault in a container (testcontainers)
  record              Proxy a server and write the exchanges as YAML scenarios
  compare             Proxy a server and report where doppel answers differently
  openapi             Print the OpenAPI 3.1 document of both services

Options:
  -h, --help          Show this help
  -v, --version       Print doppel's version

Run "doppel <command> --help" for a command's options.
Exit codes: 0 success, 1 usage or start-up error, 2 invalid scenario, 3 target unreachable, 4 failures.`

/** The version in doppel's own package.json. */
export function version(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version
}

/** The `doppel` command line. Resolves with the exit code; `serve` resolves once the server stops. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv
  try {
    switch (command) {
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        io.stdout(USAGE + '\n')
        return command === undefined ? 1 : 0
      case '-v':
      case '--version':
        io.stdout(`${version()}\n`)
        return 0
      case 'serve': {
        const stop = watchForStop()
        try {
          const handle = await serve(rest, io)
          if (!handle) return 0
          await stop.stopped
          try {
            await handle.close()
          } catch (error) {
            // A failed stop (the last --data-dir write) is one line and exit code 1.
            io.stderr(`${(error as Error).message}\n`)
            return 1
          }
          return 0
        } finally {
          stop.dispose()
        }
      }
      case 'run': {
        const { runCommand } = await import('./run-command.ts')
        return await runCommand(rest, io)
      }
      case 'conformance': {
        const { conformanceCommand } = await import('./conformance-command.ts')
        return await conformanceCommand(rest, io)
      }
      case 'conformance-vault': {
        const { conformanceVaultCommand } = await import('./conformance-vault-command.ts')
        return await conformanceVaultCommand(rest, io)
      }
      case 'openapi': {
        const { openApiCommand } = await import('./openapi-command.ts')
        return openApiCommand(rest, io)
      }
      case 'record':
        return await untilProxyStops(async () => (await import('./record-command.ts')).startRecord(rest, io))
      case 'compare':
        return await untilProxyStops(async () => (await import('./compare-command.ts')).startCompare(rest, io))
      default: {
        const suggestion = didYouMean(command, COMMANDS)
        const what = command.startsWith('-') ? `unknown option ${command}` : `unknown command "${command}"`
        io.stderr(`doppel: ${what}${suggestion ? ` (did you mean "${suggestion}"?)` : ''}\nRun "doppel --help" for usage.\n`)
        return 1
      }
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${error.message}\nRun "doppel ${command} --help" for usage.\n`)
      return 1
    }
    if (error instanceof StartupError) {
      io.stderr(`${error.message}\n`)
      return 1
    }
    throw error
  }
}

/**
 * Runs the command line in this process: the `doppel` bin. Output into a closed pipe (`doppel run --list |
 * head -1`) ends quietly; an unexpected error is one line (the stack with `DOPPEL_DEBUG=1`).
 */
export async function runCli(argv = process.argv.slice(2)): Promise<void> {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0)
      throw error
    })
  }
  const io: CliIo = {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    cwd: process.cwd(),
  }
  try {
    process.exitCode = await main(argv, io)
  } catch (error) {
    const shown = process.env.DOPPEL_DEBUG ? ((error as Error).stack ?? String(error)) : (error as Error).message
    io.stderr(`doppel: ${shown}\n`)
    process.exitCode = 1
  }
}

/** Runs `record` or `compare` until stopped, watching for the stop from before the proxy listens; the exit code. */
async function untilProxyStops(start: () => Promise<ProxySession | undefined>): Promise<number> {
  const stop = watchForStop()
  try {
    const { runUntilStopped } = await import('./proxy-session.ts')
    return await runUntilStopped(await start(), stop)
  } finally {
    stop.dispose()
  }
}
