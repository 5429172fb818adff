import type { CliIo } from '../core/cli-io.ts'
import { readStartFile } from '../core/read-start-file.ts'
import { startDoppelServer, type DoppelServer, type DoppelServerOptions } from '../faces/server/index.ts'
import { resolve } from 'node:path'
import { SERVE_SEED_OPTIONS, serveSeedFlags } from './deprecated-flags.ts'
import { flagHelp, HELP_FLAG, type FlagTable } from './flag-table.ts'
import { FIXTURES_OPTION, listenOptions, PID_FILE_OPTION, portFlag, PROFILE_OPTION, profileFlag, QUIET_OPTION } from './flags.ts'
import { parseOptions } from './parse-options.ts'
import { tenantFlags } from './tenant-flags.ts'
import { UsageError } from './usage-error.ts'

/** Every flag of `doppel serve`: the parser reads this table, the help is made from it, docs/server.md lists it. */
export const SERVE_FLAGS = {
  ...listenOptions('8200'),
  'root-token': { type: 'string', multiple: true, value: '<t>', help: 'Management token (default "root", or $DOPPEL_ROOT_TOKEN; repeatable)' },
  'root-token-file': { type: 'string', multiple: true, value: '<file>', help: 'Read management tokens from a file, one a line (repeatable)' },
  'allowed-host': {
    type: 'string',
    multiple: true,
    value: '<name>',
    help: 'Also answer this Host name on a loopback bind; ".example.test" admits\nthe domain and its subdomains (repeatable)',
  },
  'control-token': { type: 'string', multiple: true, value: '<t>', help: 'Also opens the control API (/_doppel/*) beyond loopback (repeatable)' },
  'control-token-file': { type: 'string', multiple: true, value: '<file>', help: 'Read control tokens from a file, one a line (repeatable)' },
  ...FIXTURES_OPTION,
  ...SERVE_SEED_OPTIONS,
  profile: { ...PROFILE_OPTION.profile, help: 'service (default) or vault (X-Vault-Token, mount "aws" too)' },
  'allow-sha1': { type: 'boolean', default: false, help: 'Accept SHA-1-based identity signatures at ec2 login' },
  'cloud-port': { type: 'string', value: '<n>', help: 'Also serve STS/EC2/IAM/IMDS at the root of their own listener' },
  'expose-imds': {
    type: 'boolean',
    default: false,
    help: 'Answer the instance metadata service (role credentials included) beyond\nloopback without a token, e.g. to containers on a --host 0.0.0.0 cloud listener',
  },
  tls: {
    type: 'boolean',
    default: false,
    help: 'Serve HTTPS (both listeners) with a development CA made at start, kept in\n--data-dir\'s tls/ folder or else in a temporary folder removed at stop',
  },
  'tls-cert': { type: 'string', value: '<file>', help: 'Serve HTTPS with this PEM certificate (chain may follow; needs --tls-key)' },
  'tls-key': { type: 'string', value: '<file>', help: 'The PEM private key of --tls-cert' },
  'imds-listener-limit': { type: 'string', value: '<n>', help: 'Per-instance IMDS sockets open at once, tenants included (default 64)' },
  'fault-limit': { type: 'string', value: '<n>', help: 'Faults set at once, tenants included (default 1000)' },
  'clock-start': { type: 'string', value: '<time>', help: 'Start the emulator clock at this RFC 3339 time' },
  'frozen-clock': { type: 'boolean', default: false, help: 'Move time only through the control API' },
  'data-dir': { type: 'string', value: '<dir>', help: 'Keep the state in <dir>: loaded at start, written on stop and when it changed' },
  'snapshot-interval': { type: 'string', value: '<d>', help: 'How often a changed state is written to --data-dir (default 5s)' },
  'max-tenants': { type: 'string', default: '100', value: '<n>', help: 'Tenants under /t/<name>/ at most (default 100; 0 serves none)' },
  'tenant-idle-timeout': { type: 'string', default: '30m', value: '<d>', help: 'Drop a tenant unused this long on the wall clock (default 30m)' },
  'tenant-heap-limit': { type: 'string', value: '<MiB>', help: 'No new tenant while the heap holds more (default 70% of its limit)' },
  ...PID_FILE_OPTION,
  ...QUIET_OPTION,
} as const satisfies FlagTable

export const SERVE_USAGE = `Usage: doppel serve [options]

Serves the cloud auth service, the module registry, the fake cloud and the control API over HTTP.

Options:
${flagHelp({ ...SERVE_FLAGS, ...HELP_FLAG })}

Prints exactly one line "doppel listening on http://HOST:PORT" (https:// with TLS) when ready; with
--tls, stderr says where the CA is ("export VAULT_CACERT=…" and the like). SIGINT/SIGTERM stop it
(within a second: listeners and connections closed, pending latency faults and provider calls ended),
and so does the end of npx or the npm script that started it. On a shared machine, pass tokens in a
file or in $DOPPEL_ROOT_TOKEN/$DOPPEL_CONTROL_TOKEN ($VAULT_DEV_ROOT_TOKEN_ID with --profile vault),
not on the command line, where every local user can read them.`

/** A token file: one token a line; a few KiB at most. */
const TOKEN_FILE_LIMIT = 64 * 1024

/**
 * Parses `doppel serve` arguments and starts the server(s); undefined after `--help`. `signal` abandons a
 * start still under way (a fixture load): the promise then rejects with its reason.
 */
export async function serve(argv: string[], io: CliIo, { env = process.env, signal }: { env?: NodeJS.ProcessEnv; signal?: AbortSignal } = {}): Promise<DoppelServer | undefined> {
  const line = parseOptions('serve', argv, SERVE_FLAGS, SERVE_USAGE, io)
  if (!line) return undefined
  const { values } = line
  const port = portFlag('serve', '--port', values.port)
  const cloudPort = values['cloud-port'] === undefined ? undefined : portFlag('serve', '--cloud-port', values['cloud-port'])
  const profile = profileFlag('serve', values.profile) ?? 'service'
  const { seed, fixtures } = serveSeedFlags(values, io)
  if (values['snapshot-interval'] !== undefined && values['data-dir'] === undefined) {
    throw new UsageError('doppel serve: --snapshot-interval needs --data-dir')
  }
  const tenants = tenantFlags(values['max-tenants'], values['tenant-idle-timeout'], values['tenant-heap-limit'])
  const tls = tlsFlag(values, io.cwd)
  const rootTokens = await tokens(values['root-token'], values['root-token-file'], [env.DOPPEL_ROOT_TOKEN, profile === 'vault' ? env.VAULT_DEV_ROOT_TOKEN_ID : undefined], '--root-token-file', io.cwd)
  const controlTokens = await tokens(values['control-token'], values['control-token-file'], [env.DOPPEL_CONTROL_TOKEN], '--control-token-file', io.cwd)
  const options: DoppelServerOptions = {
    profile,
    cloudAuth: { allowSha1: values['allow-sha1'] },
    rootTokens: rootTokens.length > 0 ? rootTokens : ['root'],
    ...(values['imds-listener-limit'] !== undefined && { fakeCloud: { imdsListenerLimit: parseCount(values['imds-listener-limit'], '--imds-listener-limit') } }),
    ...(values['fault-limit'] !== undefined && { faultLimit: parseCount(values['fault-limit'], '--fault-limit') }),
    ...(seed !== undefined && { seed }),
    ...((values['clock-start'] !== undefined || values['frozen-clock']) && {
      clock: { ...(values['clock-start'] !== undefined && { start: values['clock-start'] }), frozen: values['frozen-clock'] },
    }),
    ...(fixtures.length > 0 && { fixtures }),
    port,
    host: values.host,
    allowedHosts: values['allowed-host'] ?? [],
    controlTokens,
    ...(cloudPort !== undefined && { cloudPort }),
    ...(values['expose-imds'] && { exposeImds: true }),
    ...(tls && { tls }),
    ...(values['data-dir'] !== undefined && { dataDir: values['data-dir'] }),
    ...(values['snapshot-interval'] !== undefined && { snapshotInterval: values['snapshot-interval'] }),
    tenants,
    ...(values['pid-file'] !== undefined && { pidFile: resolve(io.cwd, values['pid-file']) }),
    ...(!values.quiet && {
      onRequest: (line: { method: string; path: string; status: number; ms: number }) => io.stderr(`${line.method} ${line.path} ${line.status} ${line.ms.toFixed(1)}ms\n`),
    }),
    onWarning: (line) => io.stderr(line + '\n'),
    ...(signal && { signal }),
  }
  const server = await startDoppelServer(options)
  if (server.cloud) io.stderr(`doppel fake cloud on ${server.cloud.url}\n`)
  if (server.ca) io.stderr(trustHints(server.ca, server.url))
  io.stdout(`doppel listening on ${server.url}\n`)
  return server
}

/** `--tls`, or `--tls-cert` with `--tls-key`: one of the two ways, never both. */
function tlsFlag(values: { tls: boolean; 'tls-cert'?: string; 'tls-key'?: string }, cwd: string): DoppelServerOptions['tls'] {
  const certFile = values['tls-cert']
  const keyFile = values['tls-key']
  if ((certFile === undefined) !== (keyFile === undefined)) throw new UsageError('doppel serve: --tls-cert and --tls-key go together')
  if (certFile !== undefined && keyFile !== undefined) {
    if (values.tls) throw new UsageError('doppel serve: --tls makes a development certificate; give --tls or --tls-cert with --tls-key, not both')
    return { certFile: resolve(cwd, certFile), keyFile: resolve(cwd, keyFile) }
  }
  return values.tls ? 'development' : undefined
}

/**
 * The tokens of the flags and of the token files (one a line); when they give none, those of the
 * environment variables that are set.
 */
async function tokens(given: string[] | undefined, files: string[] | undefined, fromEnv: (string | undefined)[], flag: string, cwd: string): Promise<string[]> {
  const found = [...(given ?? [])]
  for (const file of files ?? []) {
    let text: string
    try {
      text = await readStartFile(resolve(cwd, file), { limit: TOKEN_FILE_LIMIT })
    } catch (error) {
      throw new UsageError(`doppel serve: cannot read ${flag} ${file}: ${(error as Error).message}`)
    }
    const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '')
    if (lines.length === 0) throw new UsageError(`doppel serve: ${flag} ${file} holds no token`)
    found.push(...lines)
  }
  return found.length > 0 ? found : fromEnv.filter((token): token is string => token !== undefined && token !== '')
}

/**
 * What `vault server -dev-tls` prints: where the CA is, as lines a shell can run. A wildcard bind's address
 * is not one to connect to (nor in the certificate): the address given is loopback's.
 */
function trustHints(ca: { file: string; isNew: boolean }, url: string): string {
  const file = shellWord(ca.file)
  const address = url.replace(/^https:\/\/(0\.0\.0\.0|\[::\])(?=:)/, (_, host: string) => `https://${host === '[::]' ? '[::1]' : '127.0.0.1'}`)
  return [
    `doppel: serving TLS with ${ca.isNew ? 'a new' : 'the kept'} development CA ${ca.file}; clients can trust it with:`,
    `export VAULT_ADDR=${shellWord(address)}`,
    `export VAULT_CACERT=${file}`,
    `export NODE_EXTRA_CA_CERTS=${file}`,
    `export REQUESTS_CA_BUNDLE=${file}`,
    `# curl --cacert ${file}; Go and OpenSSL read SSL_CERT_FILE=${file} (instead of the system's CAs)`,
    '',
  ].join('\n')
}

/** A path as one shell word: as is when it is plain, else single-quoted. */
const shellWord = (text: string): string => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`)

function parseCount(value: string, flag: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new UsageError(`doppel serve: ${flag} must be an integer from 0 to 65535, not "${value}"`)
  return Number(value)
}
