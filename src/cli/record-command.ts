import { resolve } from 'node:path'
import type { CliIo } from '../core/cli-io.ts'
import { RecordingFiles, RecordingOutError, SPLIT_RULES, type SplitRule, readStartingState, StartingStateError } from '../faces/record/index.ts'
import { parseOptions } from './parse-options.ts'
import { flagHelp, HELP_FLAG, type FlagTable } from './flag-table.ts'
import { listenOptions } from './flags.ts'
import { PROXY_TAIL_OPTIONS, proxyFlags, proxyReadyLine, startProxySession, UPSTREAM_OPTION, type ProxySession } from './proxy-session.ts'
import { StartupError, UsageError } from './usage-error.ts'

/** Every flag of `doppel record`. */
export const RECORD_FLAGS = {
  upstream: { ...UPSTREAM_OPTION.upstream, help: 'The server to record (required)' },
  out: { type: 'string', value: '<dir>', help: 'Where the scenarios go (required)' },
  ...listenOptions('8300'),
  'split-by': { type: 'string', default: 'session', value: '<rule>', help: 'session (default: one scenario) or service (auth and registry apart)' },
  name: { type: 'string', value: '<name>', help: 'Scenario and file name (default recording-<time>)' },
  'upstream-token': {
    type: 'string',
    value: '<t>',
    help: "Management token of a doppel upstream: its state at the start is\nrestored by each scenario's first step, so replays start from it",
  },
  ...PROXY_TAIL_OPTIONS,
} as const satisfies FlagTable

export const RECORD_USAGE = `Usage: doppel record --upstream <url> --out <dir> [options]

Forwards every request to the upstream unchanged and writes the exchanges, as they happen, as
YAML scenarios that replay on the emulator, on doppel serve and on the upstream; stops on
SIGINT/SIGTERM or POST /_doppel/record/stop. Secrets are never written. Bodies are held up to
64 MiB: a larger answer is a 502 to the client and left out.

Options:
${flagHelp({ ...RECORD_FLAGS, ...HELP_FLAG })}

${proxyReadyLine('recording')}`

/** `doppel record`: parses the arguments and starts recording; undefined after `--help`. */
export async function startRecord(argv: string[], io: CliIo): Promise<ProxySession | undefined> {
  const line = parseOptions('record', argv, RECORD_FLAGS, RECORD_USAGE, io)
  if (!line) return undefined
  const { values } = line
  const { upstream, port } = proxyFlags('record', values)
  if (values.out === undefined) throw new UsageError('doppel record: --out <dir> is required')
  const splitBy = values['split-by'] as SplitRule
  if (!SPLIT_RULES.includes(splitBy)) throw new UsageError(`doppel record: --split-by must be one of ${SPLIT_RULES.join(', ')}, not "${splitBy}"`)
  const out = resolve(io.cwd, values.out)
  const token = values['upstream-token']
  let files: RecordingFiles
  try {
    files = await RecordingFiles.open({
      out,
      splitBy,
      upstream,
      ...(values.name !== undefined && { name: values.name }),
      ...(token !== undefined && { readStartingState: () => readStartingState(upstream, token) }),
    })
  } catch (error) {
    if (error instanceof RecordingOutError || error instanceof StartingStateError) throw new StartupError(error.message)
    throw error
  }
  let failed: string | undefined
  return startProxySession(
    'record',
    {
      upstream,
      port,
      host: values.host,
      quiet: values.quiet,
      ...(values['pid-file'] !== undefined && { pidFile: values['pid-file'] }),
      onExchange: async (exchange) => {
        try {
          await files.add(exchange)
        } catch (error) {
          // The client still gets its answer; the session's end says the files are incomplete.
          if (failed === undefined) io.stderr(`doppel record: cannot write the recording: ${(failed = (error as Error).message)}\n`)
        }
      },
      finish: async () => {
        const written = files.written
        io.stderr(written.length === 0 ? 'doppel record: nothing recorded\n' : written.map((file) => `doppel record: wrote ${file}\n`).join(''))
        return failed === undefined ? 0 : 1
      },
    },
    io,
  )
}
