/**
 * The data directory's file operations: the start-up check, reading a snapshot, and the atomic write.
 * Every call goes through a `DataDirFs` (node:fs/promises by default) so tests can make a disk fail.
 */
import { constants, type Stats } from 'node:fs'
import * as fsPromises from 'node:fs/promises'
import type { FileHandle } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import { dirname, join } from 'node:path'
import { errorKind } from '../../core/doppel-error.ts'
import { readStartFile, StartFileError } from '../../core/read-start-file.ts'

/** The data directory could not be used at start: one line, naming the file. */
export class DataDirError extends errorKind('DataDirError', 'DOPPEL_DATA_DIR') {}

/** The calls the data directory makes; `node:fs/promises` unless a test swaps one. */
export type DataDirFs = Pick<typeof fsPromises, 'lstat' | 'mkdir' | 'open' | 'readdir' | 'readFile' | 'rename' | 'rm' | 'stat'>

/**
 * A directory as it was checked: writes go only into that same directory (device and inode), never into
 * another one or a link put in its place while the server runs.
 */
export interface CheckedDirectory {
  path: string
  dev: number
  ino: number
  /** Whether the path itself may be a link (the data directory a user named may be one; folders doppel makes never are). */
  linkAllowed: boolean
}

const checkedAs = (path: string, stats: Stats, linkAllowed: boolean): CheckedDirectory => ({ path, dev: stats.dev, ino: stats.ino, linkAllowed })

export const nodeFs: DataDirFs = fsPromises

const TEMPORARY = /\.[0-9a-f]{16}\.tmp$/

/** A temporary name no one can have planted: it is created with O_EXCL, so a file (or link) there fails the open. */
const temporaryName = (file: string) => `${file}.${randomBytes(8).toString('hex')}.tmp`

/**
 * Makes `dir` (and missing parents, mode 0700) or checks the existing one: a directory owned by this user,
 * writable by no one else, where a file can be written. Node's recursive mkdir loops forever where the
 * parent exists and mkdir still answers ENOENT (`/proc/nope`), so the walk up is done here.
 */
export async function prepareDirectory(fs: DataDirFs, dir: string): Promise<CheckedDirectory> {
  const refuse = (why: string) => new DataDirError(`doppel serve: cannot use the data directory ${dir}: ${why}`)
  try {
    await makeDirectory(fs, dir)
  } catch (error) {
    throw refuse((error as Error).message)
  }
  let stats: Stats
  try {
    stats = await fs.stat(dir)
  } catch (error) {
    throw refuse((error as Error).message)
  }
  if (!stats.isDirectory()) throw refuse('it is not a directory')
  const uid = process.getuid?.()
  if (uid !== undefined && stats.uid !== uid) throw refuse(`it is owned by uid ${stats.uid}, not this user (uid ${uid})`)
  if ((stats.mode & 0o022) !== 0) {
    throw refuse(`it is writable by others (mode ${(stats.mode & 0o777).toString(8).padStart(4, '0')}); chmod 700 it`)
  }
  const checked = checkedAs(dir, stats, true)
  try {
    await removeTemporaries(fs, dir)
    await writeAtomically(fs, checked, '.doppel-probe', '')
    await fs.rm(join(dir, '.doppel-probe'), { force: true })
  } catch (error) {
    throw refuse(`cannot write in it: ${(error as Error).message}`)
  }
  return checked
}

/**
 * The folder `name` inside a checked directory, made (0700) if missing: a real folder of this user, never a
 * link, checked as `openChecked` checks it later.
 */
export async function prepareSubdirectory(fs: DataDirFs, parent: CheckedDirectory, name: string): Promise<CheckedDirectory> {
  await (await openChecked(fs, parent)).close()
  const path = join(parent.path, name)
  await fs.mkdir(path, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error
  })
  const handle = await openDirectory(fs, path, false)
  try {
    const stats = await handle.stat()
    const uid = process.getuid?.()
    if (uid !== undefined && stats.uid !== uid) throw new Error(`${path} is owned by uid ${stats.uid}, not this user (uid ${uid})`)
    if ((stats.mode & 0o022) !== 0) throw new Error(`${path} is writable by others`)
    return checkedAs(path, stats, false)
  } finally {
    await handle.close()
  }
}

/** Opens a directory to check it; one doppel made is opened without following a link. */
async function openDirectory(fs: DataDirFs, path: string, linkAllowed: boolean): Promise<FileHandle> {
  try {
    return await fs.open(path, constants.O_RDONLY | constants.O_DIRECTORY | (linkAllowed ? 0 : constants.O_NOFOLLOW))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // With O_NOFOLLOW, Linux answers ENOTDIR for a link to a folder.
    if (code !== 'ELOOP' && code !== 'ENOTDIR') throw error
    const link = await fs.lstat(path).then((stats) => stats.isSymbolicLink(), () => false)
    throw new Error(link ? `${path} is a symbolic link; doppel writes only into a real folder` : `${path} is not a directory`)
  }
}

/** The checked directory, opened, if it is still the one checked: refuses a folder or link put in its place. */
async function openChecked(fs: DataDirFs, dir: CheckedDirectory): Promise<FileHandle> {
  const handle = await openDirectory(fs, dir.path, dir.linkAllowed)
  const stats = await handle.stat().catch(async (error: unknown) => {
    await handle.close()
    throw error
  })
  if (stats.dev !== dir.dev || stats.ino !== dir.ino) {
    await handle.close()
    throw new Error(`${dir.path} is no longer the directory checked at start (it was replaced); doppel writes only into that one`)
  }
  return handle
}

/** Removes the file `name` from a checked directory (a link there is removed, not followed). */
export async function removeChecked(fs: DataDirFs, dir: CheckedDirectory, name: string): Promise<void> {
  await (await openChecked(fs, dir)).close()
  await fs.rm(join(dir.path, name), { force: true })
}

/** Makes `dir` and any missing parents (mode 0700); an existing one is left as it is. */
async function makeDirectory(fs: DataDirFs, dir: string): Promise<void> {
  try {
    await fs.mkdir(dir, { mode: 0o700 })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return
    const parent = dirname(dir)
    if (code !== 'ENOENT' || parent === dir) throw error
    await makeDirectory(fs, parent)
    // Once more, and no further: a second ENOENT is final.
    await fs.mkdir(dir, { mode: 0o700 }).catch((again: NodeJS.ErrnoException) => {
      if (again.code !== 'EEXIST') throw again
    })
  }
}

/** Removes temporary files a killed process left in `dir` (unlinking a link removes the link only). */
export async function removeTemporaries(fs: DataDirFs, dir: string): Promise<void> {
  let names: string[]
  try {
    names = await fs.readdir(dir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return
    throw error
  }
  for (const name of names) if (TEMPORARY.test(name)) await fs.rm(join(dir, name), { force: true, recursive: true })
}

/**
 * A snapshot's text, or undefined when there is none. A link is refused: doppel reads only files it wrote;
 * so are a FIFO or device (never waited on nor read without end) and a file over `limit` bytes.
 */
export async function readSnapshotText(fs: DataDirFs, file: string, limit: number): Promise<string | undefined> {
  try {
    return await readStartFile(file, { limit, noFollow: true, open: (path, flags) => fs.open(path, flags) })
  } catch (error) {
    if (error instanceof StartFileError && error.reason === 'ENOENT') return undefined
    throw new DataDirError(`doppel serve: cannot read the snapshot ${file}: ${(error as Error).message}`)
  }
}

/**
 * Writes `name` in a checked directory: a fresh temporary file (O_EXCL: never through a planted file or
 * link), synced, renamed over `name` (a link there is replaced, not followed), and the directory synced:
 * the file is always the old or the new text, whole. The directory is checked to be the one checked at start
 * before and after: a folder swapped for a link mid-run gets nothing.
 */
export async function writeAtomically(fs: DataDirFs, dir: CheckedDirectory, name: string, text: string | Iterable<string> | AsyncIterable<string>): Promise<void> {
  const directory = await openChecked(fs, dir)
  try {
    const file = join(dir.path, name)
    const temporary = temporaryName(file)
    const handle = await fs.open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600)
    try {
      try {
        await handle.writeFile(text, 'utf8')
        await handle.sync()
      } finally {
        await handle.close()
      }
      // Once more, right before the rename: the write may have taken a while.
      await (await openChecked(fs, dir)).close()
      await fs.rename(temporary, file)
    } catch (error) {
      await fs.rm(temporary, { force: true })
      throw error
    }
    await directory.sync()
  } finally {
    await directory.close()
  }
}
