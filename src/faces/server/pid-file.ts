/**
 * `--pid-file`: this process's id, so that a script that started doppel through npx can signal doppel
 * itself. Written as `replaceFileSync` writes: never through a link, and never over a link, FIFO or folder.
 */
import { rmSync } from 'node:fs'
import { readStartFile } from '../../core/read-start-file.ts'
import { replaceFileSync } from '../../core/replace-file.ts'

/** Writes the pid file; the returned function removes it, if it still names this process. */
export function writePidFile(path: string): () => Promise<void> {
  replaceFileSync(path, `${process.pid}\n`, 0o644)
  return async () => {
    try {
      if ((await readStartFile(path, { limit: 64, noFollow: true })).trim() === String(process.pid)) rmSync(path)
    } catch {
      // Already removed (or replaced by another run): nothing of ours to take away.
    }
  }
}
