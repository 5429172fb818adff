/**
 * `doppel serve --data-dir <dir>`: the root instance's state lives in `<dir>/root.snapshot.json`, each
 * tenant's in `<dir>/tenants/<id>.snapshot.json`. Loaded at start; written when something changed, every
 * `--snapshot-interval`, and on a clean stop; a dropped tenant's file goes with it. Each write is atomic
 * (see `writeAtomically`): a crash leaves the previous complete snapshot. A failed write is reported once
 * and retried, backing off on the wall clock, until it works; a failed write at stop is an error.
 */
import { join } from 'node:path'
import { callerHook } from '../../core/caller-hook.ts'
import { DurationError, parseDuration } from '../../core/duration.ts'
import { SnapshotError } from '../../core/snapshot/index.ts'
import { jsonChunks } from '../../core/json-chunks.ts'
import type { Doppel } from '../doppel/index.ts'
import type { TenantRegistry } from '../tenants/index.ts'
import {
  DataDirError,
  nodeFs,
  prepareDirectory,
  prepareSubdirectory,
  readSnapshotText,
  removeChecked,
  removeTemporaries,
  writeAtomically,
  type CheckedDirectory,
  type DataDirFs,
} from './data-dir-files.ts'

export { DataDirError, type DataDirFs } from './data-dir-files.ts'

const ROOT_SNAPSHOT_FILE = 'root.snapshot.json'
const TENANTS_DIRECTORY = 'tenants'
const TENANT_FILE = /^([a-z0-9-]{1,63})\.snapshot\.json$/
const DEFAULT_SNAPSHOT_INTERVAL = '5s'
/** A failing write is tried again after this long, doubling up to the most. */
const RETRY_FIRST_MS = 1000
const RETRY_MOST_MS = 60_000

export interface DataDirOptions {
  dir: string
  /** A duration (`5s`, `500ms`); default 5s. */
  interval?: string
  /** Where a write that starts failing, and its recovery, are reported (one line each); the server keeps running. */
  onError?: (message: string) => void
  /** The server's tenants: each is restored from and written to its own file. */
  tenants?: TenantRegistry
  /** The file calls (tests make the disk fail through them); node:fs/promises by default. */
  fs?: DataDirFs
  /** The wall clock the retries back off on; Date.now by default. */
  wallClock?: () => number
}

export interface DataDir {
  file: string
  /** Writes what changed since the last write now; rejects if a write fails (it is retried later). */
  flush(): Promise<void>
  /** Stops the periodic writes and writes a last snapshot; rejects with a DataDirError if that fails. */
  close(): Promise<void>
}

/** What a file was last written from: a new instance under the same name is written even at the same count. */
interface Written {
  instance: Doppel
  changes: number
}

/** Checks the directory, reads the snapshots into `doppel` and its tenants, and starts writing them back. */
export async function openDataDir(doppel: Doppel, options: DataDirOptions): Promise<DataDir> {
  const intervalMs = parseInterval(options.interval ?? DEFAULT_SNAPSHOT_INTERVAL)
  const fs = options.fs ?? nodeFs
  const now = options.wallClock ?? Date.now
  // The caller's line of report: a throw in it must not turn a write that worked into a failure, or stop the retries.
  const reportError = callerHook('onError', options.onError)
  // A saved state is read back as one text: without a limit it could grow past what loads again.
  if (doppel.store.maxBytes === Infinity) throw new DataDirError('doppel serve: a data directory needs a state size limit (maxStateBytes is Infinity): a saved state must load again')
  const file = join(options.dir, ROOT_SNAPSHOT_FILE)
  const dataDir = await prepareDirectory(fs, options.dir)
  await loadSnapshotFile(fs, doppel, file)
  const tenantsDir = join(options.dir, TENANTS_DIRECTORY)
  const tenantName = (id: string) => `${id}.snapshot.json`
  const tenantFile = (id: string) => join(tenantsDir, tenantName(id))
  /** The tenants' folder, checked once made: later writes go into it only while it is the same folder. */
  let tenantsFolder: CheckedDirectory | undefined
  const written = new Map<string, Written>([['', { instance: doppel, changes: doppel.changes }]])
  if (options.tenants) {
    for (const id of await loadTenants(fs, options.tenants, tenantsDir)) {
      const tenant = options.tenants.get(id)!
      written.set(id, { instance: tenant, changes: tenant.changes })
    }
  }

  /** Whether the file was last written from another instance, or from this one at another count. */
  const stale = (key: string, instance: Doppel) => {
    const last = written.get(key)
    return last?.instance !== instance || last.changes !== instance.changes
  }
  /** The file being written or removed, named when that fails. */
  let current = file
  const save = async (key: string, instance: Doppel, dir: CheckedDirectory, name: string) => {
    current = join(dir.path, name)
    const changes = instance.changes
    // Taken at once (synchronously), then turned into text and written piece by piece while requests go on.
    await writeAtomically(fs, dir, name, jsonChunks(instance.snapshot()))
    written.set(key, { instance, changes })
  }
  /** Removes a dropped tenant's file (at its drop, and again at a later save if that failed). */
  const forget = async (id: string) => {
    current = tenantFile(id)
    if (tenantsFolder) await removeChecked(fs, tenantsFolder, tenantName(id))
    else await fs.rm(tenantFile(id), { force: true })
    written.delete(id)
  }
  const saveAll = async () => {
    if (stale('', doppel)) await save('', doppel, dataDir, ROOT_SNAPSHOT_FILE)
    if (!options.tenants) return
    const live = new Set<string>()
    for (const { id } of options.tenants.list()) {
      const tenant = options.tenants.get(id)
      if (!tenant) continue
      live.add(id)
      if (!stale(id, tenant)) continue
      current = tenantsDir
      tenantsFolder ??= await prepareSubdirectory(fs, dataDir, TENANTS_DIRECTORY)
      await save(id, tenant, tenantsFolder, tenantName(id))
    }
    for (const id of written.keys()) if (id !== '' && !live.has(id)) await forget(id)
  }

  /** Set while writes fail: reported once, tried again at `retryAt`. */
  let failing: { delayMs: number; retryAt: number } | undefined
  let writing = Promise.resolve()
  /** Flushes asked for and not yet settled: the timer adds none while one is under way (a slow disk). */
  let queued = 0
  const flush = (): Promise<void> => {
    queued++
    const attempt = writing.then(saveAll).finally(() => queued--).then(
      () => {
        if (failing) reportError?.(`doppel: writing snapshots to ${options.dir} works again`)
        failing = undefined
      },
      (error: unknown) => {
        if (!failing) reportError?.(`doppel: cannot write the snapshot ${current}: ${(error as Error).message}; retrying until it works`)
        const delayMs = failing ? Math.min(failing.delayMs * 2, RETRY_MOST_MS) : RETRY_FIRST_MS
        failing = { delayMs, retryAt: now() + delayMs }
        throw error
      },
    )
    writing = attempt.catch(() => undefined)
    return attempt
  }
  // A dropped tenant's file goes with the drop, in turn with the writes: a kill right after cannot bring it back.
  options.tenants?.onDrop((id) => {
    if (!written.has(id)) return undefined
    const removal = writing.then(() => forget(id))
    writing = removal.catch(() => undefined)
    return removal
  })
  const timer = setInterval(() => {
    if (queued === 0 && (failing === undefined || now() >= failing.retryAt)) void flush().catch(() => undefined)
  }, intervalMs)
  timer.unref()
  return {
    file,
    flush,
    close: async () => {
      clearInterval(timer)
      await writing
      try {
        await saveAll()
      } catch (error) {
        throw new DataDirError(`doppel serve: the state at stop was not written to ${current}: ${(error as Error).message}`)
      }
    },
  }
}

function parseInterval(text: string): number {
  let seconds: number
  try {
    seconds = parseDuration(text, { allowFraction: true })
  } catch (error) {
    if (error instanceof DurationError) throw new DataDirError(`doppel serve: --snapshot-interval "${text}" is not a duration (${error.message})`)
    throw error
  }
  if (!(seconds >= 0.01 && seconds <= 86400)) throw new DataDirError(`doppel serve: --snapshot-interval must be from 10ms to 24h, not "${text}"`)
  return seconds * 1000
}

/** Creates and restores every tenant with a file in `dir`; the ids restored. */
async function loadTenants(fs: DataDirFs, tenants: TenantRegistry, dir: string): Promise<string[]> {
  let names: string[]
  try {
    await removeTemporaries(fs, dir)
    names = await fs.readdir(dir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw new DataDirError(`doppel serve: cannot read the tenants' snapshots in ${dir}: ${(error as Error).message}`)
  }
  const ids: string[] = []
  for (const name of names.sort()) {
    const id = TENANT_FILE.exec(name)?.[1]
    if (id === undefined) continue
    const tenant = tenants.open(id)
    if (!tenant) throw new DataDirError(`doppel serve: cannot restore ${join(dir, name)}: more tenants than --max-tenants ${tenants.maxTenants}`)
    // The tenant's --seed fixtures load first, so the snapshot wins over them.
    await tenant.ready()
    await loadSnapshotFile(fs, tenant, join(dir, name))
    ids.push(id)
  }
  return ids
}

async function loadSnapshotFile(fs: DataDirFs, doppel: Doppel, file: string): Promise<void> {
  // A document restore accepts is at most the state's limit in UTF-16 units, each at most 3 bytes of UTF-8.
  const text = await readSnapshotText(fs, file, 3 * doppel.store.maxBytes)
  if (text === undefined) return
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new DataDirError(`doppel serve: cannot read the snapshot ${file}: it is not complete JSON`)
  }
  try {
    doppel.restore(value)
  } catch (error) {
    if (error instanceof SnapshotError) throw new DataDirError(`doppel serve: cannot read the snapshot ${file}: ${error.message}`)
    throw error
  }
}
