import { createDoppel } from '../features/doppel/doppel.ts'
import type { Server } from 'node:http'
import { registerCloudListener } from '../services/fake-cloud/index.ts'
import { createDoppelServer, listen, type RunningServer, type ServerOptions } from '../faces/server/doppel-server.ts'
import { isLoopbackAddress } from '../faces/server/request-guard.ts'
import { developmentTls, TLS_DIRECTORY, tlsFromFiles, type TlsMaterial } from '../faces/server/tls-files.ts'
import { join } from 'node:path'
import { DataDirError, openDataDir, type DataDir } from '../features/snapshot/data-dir.ts'
import { TenantRegistry } from '../features/tenants/index.ts'
import type { CliIo } from '../core/cli-io.ts'
import { SERVE_SEED_OPTIONS, serveSeedFlags } from './deprecated-flags.ts'
import { FIXTURES_OPTION, listenOptions, PID_FILE_OPTION, portFlag, PROFILE_OPTION, profileFlag } from './flags.ts'
import { writePidFile } from './stop-on-signal.ts'
import { resolve } from 'node:path'
import { createSecureContext } from 'node:tls'
import { parseOptions } from './parse-options.ts'
import { tenantFlags } from './tenant-flags.ts'
import { StartupError, UsageError } from './usage-error.ts'

export const SERVE_USAGE = `Usage: doppel serve [options]

Serves the cloud auth service, the module registry, the fake cloud and the control API over HTTP.

Options:
  --port <n>            Port to listen on (default 8200; 0 picks a free port)
  --host <addr>         Address to bind (default 127.0.0.1)
  --root-token <t>      Management token (default "root"; repeatable)
  --allowed-host <name> Also answer this Host name on a loopback bind; ".example.test" admits
                        the domain and its subdomains (repeatable)
  --control-token <t>   Also opens the control API (/_doppel/*) beyond loopback (repeatable)
  --fixtures <file>     Load a YAML fixture file at start and on every reset (repeatable)
  --seed <n>            Random seed: makes ids and tokens repeatable
  --profile <name>      service (default) or vault (X-Vault-Token, mount "aws" too)
  --allow-sha1          Accept SHA-1-based identity signatures at ec2 login
  --cloud-port <n>      Also serve STS/EC2/IAM/IMDS at the root of their own listener
  --tls                 Serve HTTPS (both listeners) with a development CA made at start, kept in
                        --data-dir's tls/ folder or else in a temporary folder removed at stop
  --tls-cert <file>     Serve HTTPS with this PEM certificate (chain may follow; needs --tls-key)
  --tls-key <file>      The PEM private key of --tls-cert
  --imds-listener-limit <n>  Per-instance IMDS sockets open at once, tenants included (default 64)
  --fault-limit <n>     Faults set at once, tenants included (default 1000)
  --clock-start <time>  Start the emulator clock at this RFC 3339 time
  --frozen-clock        Move time only through the control API
  --data-dir <dir>      Keep the state in <dir>: loaded at start, written on stop and when it changed
  --snapshot-interval <d>  How often a changed state is written to --data-dir (default 5s)
  --max-tenants <n>     Tenants under /t/<name>/ at most (default 100; 0 serves none)
  --tenant-idle-timeout <d>  Drop a tenant unused this long on the wall clock (default 30m)
  --tenant-heap-limit <MiB>  No new tenant while the heap holds more (default 70% of its limit)
  --pid-file <path>     Write doppel's process id here while it runs (to signal it behind npx)
  --quiet               Do not log requests to stderr
  -h, --help            Show this help

Prints exactly one line "doppel listening on http://HOST:PORT" (https:// with TLS) when ready; with
--tls, stderr says where the CA is ("export VAULT_CACERT=…" and the like). SIGINT/SIGTERM stop it
(within a second: listeners and connections closed, pending latency faults and provider calls ended),
and so does the end of npx or the npm script that started it.`

export interface ServeHandle {
  main: RunningServer
  cloud?: RunningServer
  close(): Promise<void>
}

/** Parses `doppel serve` arguments and starts the server(s). */
export async function serve(argv: string[], io: CliIo): Promise<ServeHandle | undefined> {
  const line = parseOptions(
    'serve',
    argv,
    {
      ...listenOptions('8200'),
      'root-token': { type: 'string', multiple: true },
      'allowed-host': { type: 'string', multiple: true },
      'control-token': { type: 'string', multiple: true },
      ...FIXTURES_OPTION,
      ...SERVE_SEED_OPTIONS,
      ...PROFILE_OPTION,
      'allow-sha1': { type: 'boolean', default: false },
      'cloud-port': { type: 'string' },
      tls: { type: 'boolean', default: false },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'imds-listener-limit': { type: 'string' },
      'fault-limit': { type: 'string' },
      'clock-start': { type: 'string' },
      'frozen-clock': { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      'snapshot-interval': { type: 'string' },
      'max-tenants': { type: 'string', default: '100' },
      'tenant-idle-timeout': { type: 'string', default: '30m' },
      'tenant-heap-limit': { type: 'string' },
      ...PID_FILE_OPTION,
      quiet: { type: 'boolean', default: false },
    },
    SERVE_USAGE,
    io,
  )
  if (!line) return undefined
  const { values } = line
  const port = portFlag('serve', '--port', values.port)
  const profile = profileFlag('serve', values.profile) ?? 'service'
  const { seed, fixtures } = serveSeedFlags(values, io)
  const doppel = createDoppel({
    profile,
    cloudAuth: { allowSha1: values['allow-sha1'] },
    rootTokens: values['root-token'] ?? ['root'],
    ...(values['imds-listener-limit'] !== undefined && { imdsListenerLimit: parseCount(values['imds-listener-limit'], '--imds-listener-limit') }),
    ...(values['fault-limit'] !== undefined && { faultLimit: parseCount(values['fault-limit'], '--fault-limit') }),
    ...(seed !== undefined && { seed }),
    ...((values['clock-start'] !== undefined || values['frozen-clock']) && {
      clock: { ...(values['clock-start'] !== undefined && { start: values['clock-start'] }), frozen: values['frozen-clock'] },
    }),
  })
  if (fixtures.length > 0) {
    doppel.useFixtures(fixtures)
    try {
      await doppel.ready()
    } catch (error) {
      const lines = typeof (error as { lines?: unknown }).lines === 'function' ? (error as { lines(): string[] }).lines() : [(error as Error).message]
      throw new StartupError(`doppel serve: cannot load --fixtures: ${lines.join('; ')}`)
    }
  }
  if (values['snapshot-interval'] !== undefined && values['data-dir'] === undefined) {
    throw new UsageError('doppel serve: --snapshot-interval needs --data-dir')
  }
  const log = values.quiet
    ? undefined
    : (line: { method: string; path: string; status: number; ms: number }) =>
        io.stderr(`${line.method} ${line.path} ${line.status} ${line.ms.toFixed(1)}ms\n`)
  const tenants = new TenantRegistry(doppel, tenantFlags(values['max-tenants'], values['tenant-idle-timeout'], values['tenant-heap-limit']))
  let dataDir: DataDir | undefined
  if (values['data-dir'] !== undefined) {
    try {
      dataDir = await openDataDir(doppel, { dir: values['data-dir'], interval: values['snapshot-interval'], onError: (line) => io.stderr(line + '\n'), tenants })
    } catch (error) {
      throw error instanceof DataDirError ? new StartupError(error.message) : error
    }
  }
  const allowedHosts = values['allowed-host'] ?? []
  const tls = tlsFlags(values, [values.host, ...allowedHosts], io.cwd)
  const serverOptions: ServerOptions = {
    ...(log && { onRequest: log }),
    allowedHosts,
    controlTokens: values['control-token'] ?? [],
    tenants,
    ...(tls && { tls: { cert: tls.cert, key: tls.key } }),
  }
  let main: RunningServer | undefined
  let cloud: RunningServer | undefined
  try {
    main = await listenOrExplain(createDoppelServer(doppel, serverOptions), port, values.host, '--port')
    if (values['cloud-port'] !== undefined) {
      const cloudPort = portFlag('serve', '--cloud-port', values['cloud-port'])
      cloud = await listenOrExplain(createDoppelServer(doppel, { ...serverOptions, surface: 'cloud' }), cloudPort, values.host, '--cloud-port')
    }
  } catch (error) {
    await main?.close()
    tls?.close()
    throw error
  }
  if (!isLoopbackAddress(main.host) && doppel.isRootToken('root')) {
    io.stderr(`doppel: warning: listening beyond loopback (${main.host}) with the default root token "root": anyone who can reach this port can manage it; set --root-token\n`)
  }
  if (cloud) {
    registerCloudListener(doppel, cloud.url)
    io.stderr(`doppel fake cloud on ${cloud.url}\n`)
  }
  if (tls?.caFile) io.stderr(trustHints(tls, main.url))
  let removePidFile: (() => void) | undefined
  const close = async () => {
    // Pending latency faults would otherwise hold their requests (and the process) open.
    doppel.endPendingDelays()
    await Promise.all([main.close(), cloud?.close(), doppel.cloud.close()])
    await dataDir?.close()
    tls?.close()
    removePidFile?.()
  }
  if (values['pid-file'] !== undefined) {
    try {
      removePidFile = writePidFile(resolve(io.cwd, values['pid-file']))
    } catch (error) {
      await close()
      throw new StartupError(`doppel serve: cannot write --pid-file: ${(error as Error).message}`)
    }
  }
  io.stdout(`doppel listening on ${main.url}\n`)
  return { main, ...(cloud && { cloud }), close }
}

/**
 * The certificate `--tls` or `--tls-cert`/`--tls-key` ask for, or undefined for plain HTTP. A development
 * certificate names loopback, `--host` and every `--allowed-host`; its CA is kept in `--data-dir`.
 */
function tlsFlags(
  values: { tls: boolean; 'tls-cert'?: string; 'tls-key'?: string; 'data-dir'?: string },
  names: string[],
  cwd: string,
): TlsMaterial | undefined {
  const certFile = values['tls-cert']
  const keyFile = values['tls-key']
  if ((certFile === undefined) !== (keyFile === undefined)) throw new UsageError('doppel serve: --tls-cert and --tls-key go together')
  if (certFile !== undefined && keyFile !== undefined) {
    let material: TlsMaterial
    try {
      material = tlsFromFiles(resolve(cwd, certFile), resolve(cwd, keyFile))
      // Node checks the pair when a context is made: a mismatch is a start-up error, not the first client's.
      createSecureContext({ cert: material.cert, key: material.key })
    } catch (error) {
      throw new StartupError(`doppel serve: cannot use --tls-cert ${certFile} with --tls-key ${keyFile}: ${(error as Error).message}`)
    }
    return material
  }
  if (!values.tls) return undefined
  const dir = values['data-dir'] === undefined ? undefined : join(resolve(cwd, values['data-dir']), TLS_DIRECTORY)
  try {
    return developmentTls(names, dir)
  } catch (error) {
    throw new StartupError(`doppel serve: cannot make the --tls certificates${dir ? ` in ${dir}` : ''}: ${(error as Error).message}`)
  }
}

/**
 * What `vault server -dev-tls` prints: where the CA is, as lines a shell can run. A wildcard bind's address
 * is not one to connect to (nor in the certificate): the address given is loopback's.
 */
function trustHints(tls: TlsMaterial, url: string): string {
  const ca = shellWord(tls.caFile!)
  const address = url.replace(/^https:\/\/(0\.0\.0\.0|\[::\])(?=:)/, (_, host: string) => `https://${host === '[::]' ? '[::1]' : '127.0.0.1'}`)
  return [
    `doppel: serving TLS with ${tls.newCa ? 'a new' : 'the kept'} development CA ${tls.caFile}; clients can trust it with:`,
    `export VAULT_ADDR=${shellWord(address)}`,
    `export VAULT_CACERT=${ca}`,
    `export NODE_EXTRA_CA_CERTS=${ca}`,
    `export REQUESTS_CA_BUNDLE=${ca}`,
    `# curl --cacert ${ca}; Go and OpenSSL read SSL_CERT_FILE=${ca} (instead of the system's CAs)`,
    '',
  ].join('\n')
}

/** A path as one shell word: as is when it is plain, else single-quoted. */
const shellWord = (text: string): string => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`)

/** Listens, turning the usual start-up failures into one-line usage errors. */
async function listenOrExplain(server: Server, port: number, host: string, flag: string): Promise<RunningServer> {
  try {
    return await listen(server, port, host)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') throw new StartupError(`doppel serve: port ${port} is in use; ${flag} 0 picks a free one`)
    if (code === 'EACCES') throw new StartupError(`doppel serve: no permission to listen on port ${port}; choose a port above 1023`)
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new StartupError(`doppel serve: cannot listen on --host ${host}: no such local address`)
    throw error
  }
}

function parseCount(value: string, flag: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new UsageError(`doppel serve: ${flag} must be an integer from 0 to 65535, not "${value}"`)
  return Number(value)
}
