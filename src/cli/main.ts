import { readFileSync } from 'node:fs'
import { didYouMean } from '../core/did-you-mean.ts'
import { packageFile } from '../core/package-files.ts'
import { serve } from './serve-command.ts'
import type { CliIo } from '../core/cli-io.ts'
import type { ProxySession } from './proxy-session.ts'
import { watchForStop } from './stop-on-signal.ts'
import { StartupError, UsageError } from './usage-error.ts'
import { ownEntry } from '../core/own-field.ts'

/** A command: its line in `doppel --help`, and how it runs (imported on first use); resolves with the exit code. */
interface Command {
  summary: string
  run(argv: string[], io: CliIo, exit?: (code: number) => void): Promise<number>
}

/** Every command, once: `doppel --help` lists them, `main` dispatches by them, did-you-mean suggests them. */
const COMMANDS: Readonly<Record<string, Command>> = {
  serve: { summary: 'Serve both services, the fake cloud and the control API over HTTP', run: serveUntilStopped },
  run: { summary: 'Run YAML scenarios against the emulator or a server', run: async (argv, io) => (await import('./run-command.ts')).runCommand(argv, io) },
  conformance: {
    summary: 'Run the bundled conformance suite against the emulator or a server',
    run: async (argv, io) => (await import('./conformance-command.ts')).conformanceCommand(argv, io),
  },
  'conformance-vault': {
    summary: 'Run the conformance suite against a real Vault in a container (testcontainers)',
    run: async (argv, io) => (await import('./conformance-vault-command.ts')).conformanceVaultCommand(argv, io),
  },
  record: {
    summary: 'Proxy a server and write the exchanges as YAML scenarios',
    run: (argv, io) => untilProxyStops(async () => (await import('./record-command.ts')).startRecord(argv, io)),
  },
  compare: {
    summary: 'Proxy a server and report where doppel answers differently',
    run: (argv, io) => untilProxyStops(async () => (await import('./compare-command.ts')).startCompare(argv, io)),
  },
  openapi: { summary: 'Print the OpenAPI 3.1 document of both services', run: async (argv, io) => (await import('./openapi-command.ts')).openApiCommand(argv, io) },
}

const HELP_WORDS = ['help', '-h', '--help']
const VERSION_WORDS = ['-v', '--version']

const USAGE = `Usage: doppel <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(20)}${command.summary}`)
  .join('\n')}

Options:
  -h, --help          Show this help
  -v, --version       Print doppel's version

Run "doppel <command> --help" for a command's options.
Exit codes: 0 success, 1 usage or start-up error, 2 invalid scenario, 3 target unreachable, 4 failures.`

/** The version in doppel's own package.json. */
export function version(): string {
  return (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version
}

/**
 * The `doppel` command line. Resolves with the exit code; `serve` resolves once the server stops. `exit`
 * ends the process at once (the bin passes `process.exit`): for a start a stop abandoned, whose leftover
 * work (a fixture still loading on a worker) must not hold the process past the second a stop may take.
 */
export async function main(argv: string[], io: CliIo, exit?: (code: number) => void): Promise<number> {
  const [command, ...rest] = argv
  try {
    if (command === undefined || HELP_WORDS.includes(command)) {
      io.stdout(USAGE + '\n')
      return command === undefined ? 1 : 0
    }
    if (VERSION_WORDS.includes(command)) {
      io.stdout(`${version()}\n`)
      return 0
    }
    const known = ownEntry(COMMANDS, command)
    if (known) return await known.run(rest, io, exit)
    const suggestion = didYouMean(command, [...Object.keys(COMMANDS), ...HELP_WORDS, ...VERSION_WORDS])
    const what = command.startsWith('-') ? `unknown option ${command}` : `unknown command "${command}"`
    io.stderr(`doppel: ${what}${suggestion ? ` (did you mean "${suggestion}"?)` : ''}\nRun "doppel --help" for usage.\n`)
    return 1
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
    process.exitCode = await main(argv, io, (code) => process.exit(code))
  } catch (error) {
    const shown = process.env.DOPPEL_DEBUG ? ((error as Error).stack ?? String(error)) : (error as Error).message
    io.stderr(`doppel: ${shown}\n`)
    process.exitCode = 1
  }
}

/**
 * `doppel serve` until stopped, watching for the stop from before it starts: a stop while it is still
 * starting (loading fixtures) abandons the start at once; a failed stop (the last --data-dir write) is one
 * line and exit code 1.
 */
async function serveUntilStopped(argv: string[], io: CliIo, exit?: (code: number) => void): Promise<number> {
  const stop = watchForStop()
  try {
    let server
    try {
      server = await serve(argv, io, { signal: stop.signal })
    } catch (error) {
      if (!stop.signal.aborted) throw error
      exit?.(0)
      return 0
    }
    if (!server) return 0
    await stop.stopped
    try {
      await server.close()
    } catch (error) {
      io.stderr(`${(error as Error).message}\n`)
      return 1
    }
    return 0
  } finally {
    stop.dispose()
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
