/**
 * `--pid-file`: this process's id, so that a script that started doppel through npx can signal doppel
 * itself. Written as every file doppel writes: to a fresh name created exclusively (never through a file or
 * link planted there), then renamed into place; a link, FIFO or folder already at the path is refused.
 */
import { constants, lstatSync, openSync, closeSync, renameSync, rmSync, writeSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { basename, dirname, join } from 'node:path'
import { readStartFile } from '../../core/read-start-file.ts'

/** Writes the pid file; the returned function removes it, if it still names this process. */
export function writePidFile(path: string): () => Promise<void> {
  const existing = lstatSync(path, { throwIfNoEntry: false })
  if (existing && !existing.isFile()) throw new Error(`${path} is ${existing.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}; doppel writes its pid file only to a regular file or a new name`)
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`)
  const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644)
  try {
    writeSync(fd, `${process.pid}\n`)
  } finally {
    closeSync(fd)
  }
  try {
    renameSync(temporary, path)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
  return async () => {
    try {
      if ((await readStartFile(path, { limit: 64, noFollow: true })).trim() === String(process.pid)) rmSync(path)
    } catch {
      // Already removed (or replaced by another run): nothing of ours to take away.
    }
  }
}
