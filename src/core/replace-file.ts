/**
 * The one way doppel writes a small file at a path the user named (the pid file, TLS keys): to a fresh
 * name beside it, created exclusively and without following links (a file or link planted there is never
 * written through), then renamed into place. What is at the path already must be a regular file: a link,
 * FIFO or folder there is refused, not replaced.
 */
import { randomBytes } from 'node:crypto'
import { closeSync, constants, lstatSync, openSync, renameSync, rmSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

export function replaceFileSync(path: string, text: string, mode: number): void {
  const existing = lstatSync(path, { throwIfNoEntry: false })
  if (existing && !existing.isFile()) throw new Error(`${path} is ${existing.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}; doppel writes only to a regular file or a new name`)
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`)
  const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode)
  try {
    try {
      writeSync(fd, text)
    } finally {
      closeSync(fd)
    }
    renameSync(temporary, path)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
}
