/**
 * `doppel serve --data-dir <dir>`: the root instance's state lives in `<dir>/root.snapshot.json`, each
 * tenant's in `<dir>/tenants/<id>.snapshot.json`. Loaded at start; written when something changed, every
 * `--snapshot-interval`, and on a clean stop; a dropped tenant's file goes with it. Each write goes to a
 * temporary file that is synced, renamed over the snapshot, and the directory synced: a crash leaves the
 * previous complete snapshot.
 */
import { constants } from 'node:fs'
import { chmod, mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { DurationError, parseDuration } from '../../core/duration.ts'
import { SnapshotError } from '../../core/snapshot/shape.ts'
import type { Doppel } from '../doppel/doppel.ts'
import type { TenantRegistry } from '../tenants/index.ts'
import { errorKind } from '../../core/doppel-error.ts'

export const ROOT_SNAPSHOT_FILE = 'root.snapshot.json'
export const TENANTS_DIRECTORY = 'tenants'
const TENANT_FILE = /^([a-z0-9-]{1,63})\.snapshot\.json$/
export const DEFAULT_SNAPSHOT_INTERVAL = '5s'

/** The data directory could not be used at start: one line, naming the file. */
export class DataDirError extends errorKind('DataDirError', 'DOPPEL_DATA_DIR') {}

export interface DataDirOptions {
  dir: string
  /** A duration (`5s`, `500ms`); default 5s. */
  interval?: string
  /** Where a failed periodic write is reported (one line); the server keeps running. */
  onError?: (message: string) => void
  /** The server's tenants: each is restored from and written to its own file. */
  tenants?: TenantRegistry
}

export interface DataDir {
  file: string
  /** Writes the snapshot now if anything changed since the last write. */
  flush(): Promise<void>
  /** Stops the periodic writes and writes a last snapshot (clean stop). */
  close(): Promise<void>
}

/** Reads the snapshot into `doppel` (if there is one) and starts writing it back. */
export async function openDataDir(doppel: Doppel, options: DataDirOptions): Promise<DataDir> {
  const intervalMs = parseInterval(options.interval ?? DEFAULT_SNAPSHOT_INTERVAL)
  const file = join(options.dir, ROOT_SNAPSHOT_FILE)
  try {
    await mkdir(options.dir, { recursive: true, mode: 0o700 })
  } catch (error) {
    throw new DataDirError(`doppel serve: cannot create the data directory ${options.dir}: ${(error as Error).message}`)
  }
  await rm(temporaryFile(file), { force: true })
  await loadSnapshotFile(doppel, file)
  const tenantsDir = join(options.dir, TENANTS_DIRECTORY)
  const tenantFile = (id: string) => join(tenantsDir, `${id}.snapshot.json`)
  /** What each instance's change counter was when its file was last written (root under ''). */
  const written = new Map<string, number>([['', doppel.changes]])
  if (options.tenants) {
    for (const id of await loadTenants(options.tenants, tenantsDir)) written.set(id, options.tenants.get(id)!.changes)
  }

  let writing = Promise.resolve()
  const flush = (): Promise<void> => {
    writing = writing.then(async () => {
      if (doppel.changes !== written.get('')) {
        const changes = doppel.changes
        // Taken at once (synchronously), then written while requests go on.
        await writeAtomically(file, JSON.stringify(doppel.snapshot()))
        written.set('', changes)
      }
      if (!options.tenants) return
      const live = new Set<string>()
      for (const { id } of options.tenants.list()) {
        const tenant = options.tenants.get(id)
        if (!tenant) continue
        live.add(id)
        const changes = tenant.changes
        if (changes === written.get(id)) continue
        await mkdir(tenantsDir, { recursive: true, mode: 0o700 })
        await writeAtomically(tenantFile(id), JSON.stringify(tenant.snapshot()))
        written.set(id, changes)
      }
      for (const id of written.keys()) {
        if (id === '' || live.has(id)) continue
        await rm(tenantFile(id), { force: true })
        written.delete(id)
      }
    })
    return writing
  }
  const report = (error: unknown) => options.onError?.(`doppel: failed to write the snapshot ${file}: ${(error as Error).message}`)
  const timer = setInterval(() => void flush().catch(report), intervalMs)
  timer.unref()
  return {
    file,
    flush,
    close: async () => {
      clearInterval(timer)
      await writing.catch(() => undefined)
      await flush().catch(report)
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
async function loadTenants(tenants: TenantRegistry, dir: string): Promise<string[]> {
  let names: string[]
  try {
    names = await readdir(dir)
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
    await loadSnapshotFile(tenant, join(dir, name))
    ids.push(id)
  }
  return ids
}

async function loadSnapshotFile(doppel: Doppel, file: string): Promise<void> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw new DataDirError(`doppel serve: cannot read the snapshot ${file}: ${(error as Error).message}`)
  }
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

const temporaryFile = (file: string) => `${file}.tmp`

/** Write, fsync, rename, fsync the directory: the file is always the old or the new snapshot, whole. */
async function writeAtomically(file: string, text: string): Promise<void> {
  const temporary = temporaryFile(file)
  const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, 0o600)
  try {
    await handle.writeFile(text, 'utf8')
    await handle.sync()
  } finally {
    await handle.close()
  }
  await chmod(temporary, 0o600)
  await rename(temporary, file)
  const directory = await open(join(file, '..'), constants.O_RDONLY)
  try {
    await directory.sync()
  } finally {
    await directory.close()
  }
}
