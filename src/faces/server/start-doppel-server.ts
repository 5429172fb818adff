/**
 * `doppel serve` as a library: everything from creating the instance to an orderly close, for a test
 * harness or a container entry point that would otherwise spawn the CLI. The CLI maps its flags onto
 * these options (docs/server.md, "The server as a library").
 */
import type { Server } from 'node:http'
import { join, resolve } from 'node:path'
import { createSecureContext } from 'node:tls'
import { callerHook } from '../../core/caller-hook.ts'
import { createDoppel, type Doppel, type DoppelOptions } from '../../features/doppel/index.ts'
import { DataDirError, openDataDir, type DataDir } from '../../features/snapshot/index.ts'
import { TenantRegistry, type TenantOptions } from '../../features/tenants/index.ts'
import { registerCloudListener } from '../../services/fake-cloud/own-origins.ts'
import { createDoppelServer, listen, STOP_BUDGET_MS, type RunningServer, type ServerOptions } from './doppel-server.ts'
import { writePidFile } from './pid-file.ts'
import { isLoopbackAddress } from './request-guard.ts'
import { StartupError } from './startup-error.ts'
import { developmentTls, TLS_DIRECTORY, tlsFromFiles, type TlsMaterial } from './tls-files.ts'

export interface DoppelServerOptions extends DoppelOptions {
  /** Port of the main listener (default 8200; 0 picks a free one). */
  port?: number
  /** Address to bind (default 127.0.0.1). */
  host?: string
  /** Also answer these `Host` names on a loopback bind; `.example.test` admits the domain and its subdomains. */
  allowedHosts?: string[]
  /** Tokens that also open the control API beyond loopback. */
  controlTokens?: string[]
  /** Also serve STS, EC2, IAM and IMDS at the root of a listener on this port. */
  cloudPort?: number
  /**
   * Answer the instance metadata service beyond loopback without a token (role credentials included): for
   * containers that reach a cloud listener bound beyond loopback on purpose.
   */
  exposeImds?: boolean
  /** HTTPS on both listeners: `'development'` makes a CA at start (kept in `dataDir`), or your own PEM files. */
  tls?: 'development' | { certFile: string; keyFile: string }
  /** Keep the state in this folder: loaded at start, written on close and when it changed. */
  dataDir?: string
  /** How often a changed state is written to `dataDir` (a duration, default `5s`). */
  snapshotInterval?: string
  /** Tenants under `/t/<name>/` (default: 100 at most, dropped after 30 minutes unused). */
  tenants?: TenantOptions
  /** Write this process's id here while the server runs. */
  pidFile?: string
  /** Called once per answered request (the CLI's access log); a throw in it changes no answer (the first is reported as a process warning). */
  onRequest?: ServerOptions['onRequest']
  /**
   * Lines for whoever runs the server: warnings, and `dataDir` writes that failed or work again. A throw in
   * it stops nothing (the first is reported as a process warning).
   */
  onWarning?: (line: string) => void
  /** Abandons the start: what was opened is closed, and the promise rejects with the signal's reason. */
  signal?: AbortSignal
}

export interface DoppelServer {
  /** The instance served (the root; tenants are in `tenants`). */
  doppel: Doppel
  tenants: TenantRegistry
  /** The main listener's URL, `https://` with TLS. */
  url: string
  main: RunningServer
  /** The `cloudPort` listener, when asked for. */
  cloud?: RunningServer
  /** With `tls: 'development'`: the CA file clients trust, and whether it was made at this start. */
  ca?: { file: string; isNew: boolean }
  /**
   * Stops in order: latency faults ended, listeners closed (requests in flight get up to 400 ms, then a
   * 503), IMDS listeners closed, the last `dataDir` write (its failure rejects), TLS temporaries and the
   * pid file removed.
   */
  close(): Promise<void>
}

const DEFAULT_PORT = 8200

/** Starts doppel's server; resolves once every listener is up, rejects with a one-line StartupError. */
export async function startDoppelServer(options: DoppelServerOptions = {}): Promise<DoppelServer> {
  const {
    port = DEFAULT_PORT,
    host = '127.0.0.1',
    allowedHosts = [],
    controlTokens = [],
    cloudPort,
    exposeImds = false,
    tls: tlsOption,
    dataDir: dataDirOption,
    snapshotInterval,
    tenants: tenantOptions = {},
    pidFile,
    onRequest,
    onWarning,
    signal,
    ...instance
  } = options
  const warn = callerHook('onWarning', onWarning) ?? (() => {})
  // What is open so far, closed in reverse when the start fails or is abandoned.
  const opened: (() => unknown)[] = []
  const undo = async () => {
    for (const close of opened.reverse()) {
      try {
        await close()
      } catch {
        // The start's own error is the one to report.
      }
    }
  }
  const step = async <T>(work: Promise<T>): Promise<T> => {
    if (!signal) return work
    signal.throwIfAborted()
    let onAbort!: () => void
    const aborted = new Promise<never>((_, reject) => signal.addEventListener('abort', (onAbort = () => reject(signal.reason)), { once: true }))
    try {
      return await Promise.race([work, aborted])
    } finally {
      signal.removeEventListener('abort', onAbort)
    }
  }
  try {
    const doppel = createDoppel(instance)
    opened.push(() => doppel.cloud.close())
    try {
      await step(doppel.ready())
    } catch (error) {
      if (signal?.aborted) throw error
      const lines = typeof (error as { lines?: unknown }).lines === 'function' ? (error as { lines(): string[] }).lines() : [(error as Error).message]
      throw new StartupError(`doppel serve: cannot load --fixtures: ${lines.join('; ')}`)
    }
    const tenants = new TenantRegistry(doppel, tenantOptions)
    let dataDir: DataDir | undefined
    if (dataDirOption !== undefined) {
      try {
        dataDir = await step(openDataDir(doppel, { dir: dataDirOption, interval: snapshotInterval, onError: warn, tenants }))
      } catch (error) {
        throw error instanceof DataDirError ? new StartupError(error.message) : error
      }
      const opening = dataDir
      opened.push(() => opening.close())
    }
    const tls = tlsOption && (await step(tlsMaterial(tlsOption, [host, ...allowedHosts], dataDirOption)))
    if (tls) opened.push(() => tls.close())
    const serverOptions: ServerOptions = {
      ...(onRequest && { onRequest }),
      allowedHosts,
      controlTokens,
      exposeImds,
      tenants,
      ...(tls && { tls: { cert: tls.cert, key: tls.key } }),
    }
    const main = await step(listenOrExplain(createDoppelServer(doppel, serverOptions), port, host, '--port'))
    opened.push(() => main.close(0))
    let cloud: RunningServer | undefined
    if (cloudPort !== undefined) {
      const listening = await step(listenOrExplain(createDoppelServer(doppel, { ...serverOptions, surface: 'cloud' }), cloudPort, host, '--cloud-port'))
      opened.push(() => listening.close(0))
      cloud = listening
      registerCloudListener(doppel, cloud.url)
    }
    if (!isLoopbackAddress(main.host) && doppel.isRootToken('root')) {
      warn(`doppel: warning: listening beyond loopback (${main.host}) with the default root token "root": anyone who can reach this port can manage it; set --root-token`)
    }
    let removePidFile: (() => Promise<void>) | undefined
    if (pidFile !== undefined) {
      try {
        removePidFile = writePidFile(resolve(pidFile))
      } catch (error) {
        throw new StartupError(`doppel serve: cannot write --pid-file: ${(error as Error).message}`)
      }
      opened.push(removePidFile)
    }
    signal?.throwIfAborted()
    let closing: Promise<void> | undefined
    const close = () =>
      (closing ??= (async () => {
        // Pending latency faults would otherwise hold their requests (and the process) open.
        doppel.endPendingDelays()
        await Promise.all([main.close(STOP_BUDGET_MS), cloud?.close(STOP_BUDGET_MS), doppel.cloud.close()])
        try {
          await dataDir?.close()
        } finally {
          tls?.close()
          await removePidFile?.()
        }
      })())
    return {
      doppel,
      tenants,
      url: main.url,
      main,
      ...(cloud && { cloud }),
      ...(tls?.caFile !== undefined && { ca: { file: tls.caFile, isNew: tls.newCa ?? false } }),
      close,
    }
  } catch (error) {
    await undo()
    throw error
  }
}

/**
 * The certificate `tls` asks for. A development certificate names loopback, the bound host and every
 * allowed host; its CA is kept in the data directory's `tls/` folder, else in a temporary one.
 */
async function tlsMaterial(tls: NonNullable<DoppelServerOptions['tls']>, names: string[], dataDir: string | undefined): Promise<TlsMaterial> {
  if (tls !== 'development') {
    let material: TlsMaterial
    try {
      material = await tlsFromFiles(resolve(tls.certFile), resolve(tls.keyFile))
      // Node checks the pair when a context is made: a mismatch is a start-up error, not the first client's.
      createSecureContext({ cert: material.cert, key: material.key })
    } catch (error) {
      throw new StartupError(`doppel serve: cannot use --tls-cert ${tls.certFile} with --tls-key ${tls.keyFile}: ${(error as Error).message}`)
    }
    return material
  }
  const dir = dataDir === undefined ? undefined : join(resolve(dataDir), TLS_DIRECTORY)
  try {
    return await developmentTls(names, dir)
  } catch (error) {
    throw new StartupError(`doppel serve: cannot make the --tls certificates${dir ? ` in ${dir}` : ''}: ${(error as Error).message}`)
  }
}

/** Listens, turning the usual start-up failures into one-line errors. */
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
