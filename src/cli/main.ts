import { DataDirError } from '../snapshot/data-dir.ts'
import { serve } from './serve-command.ts'
import { UsageError, type CliIo } from './usage-error.ts'

const USAGE = `Usage: doppel <command> [options]

Commands:
  serve         Serve both services, the fake cloud and the control API over HTTP
  run           Run YAML scenarios against the emulator or a server
  conformance   Run the bundled conformance suite against the emulator or a server

Run "doppel <command> --help" for a command's options.`

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
        return command === undefined ? 2 : 0
      case 'serve': {
        const handle = await serve(rest, io)
        if (!handle) return 0
        await new Promise<void>((resolve) => {
          const stop = () => void handle.close().then(resolve)
          process.once('SIGINT', stop)
          process.once('SIGTERM', stop)
        })
        return 0
      }
      case 'run': {
        const { runCommand } = await import('../scenario/cli/run-command.ts')
        return await runCommand(rest, io)
      }
      case 'conformance': {
        const { conformanceCommand } = await import('../scenario/cli/run-command.ts')
        return await conformanceCommand(rest, io)
      }
      default:
        io.stderr(`doppel: unknown command "${command}"\n\n${USAGE}\n`)
        return 2
    }
  } catch (error) {
    if (error instanceof DataDirError) {
      io.stderr(`${error.message}\n`)
      return 1
    }
    if (error instanceof UsageError) {
      io.stderr(`${error.message}\nRun "doppel ${command} --help" for usage.\n`)
      return 2
    }
    throw error
  }
}
