/**
 * When a long-running command (`serve`, `record`, `compare`) stops: on SIGINT or SIGTERM to doppel's own
 * process, or, when npm started it (`npx`, `npm exec`, an npm script), once the process npm started it
 * under is gone. npm 11 runs the bin as `sh -c …` and passes neither signal on: a SIGTERM to npx kills
 * the shell and leaves doppel running with a new parent, so a changed parent process id is the sign.
 */
import { rmSync, readFileSync, writeFileSync } from 'node:fs'

export type StopReason = 'SIGINT' | 'SIGTERM' | 'orphaned' | 'requested'

/** How often the parent is checked: well inside the second in which doppel promises to stop. */
const PARENT_CHECK_MS = 200

/**
 * Resolves with the reason once the command should stop, or once `requested` resolves (a stop asked for
 * over HTTP). Its listeners go with it, so a second signal while stopping ends the process at once
 * (Node's default).
 */
export function untilStopped(requested?: Promise<unknown>, env: NodeJS.ProcessEnv = process.env): Promise<StopReason> {
  return new Promise((resolve) => {
    const parent = process.ppid
    const underNpm = env.npm_lifecycle_event !== undefined
    const stop = (reason: StopReason) => {
      process.off('SIGINT', onInt)
      process.off('SIGTERM', onTerm)
      clearInterval(watch)
      resolve(reason)
    }
    const onInt = () => stop('SIGINT')
    const onTerm = () => stop('SIGTERM')
    process.on('SIGINT', onInt)
    process.on('SIGTERM', onTerm)
    // The check alone never keeps the process alive; the server's listener does.
    const watch = underNpm ? setInterval(() => process.ppid !== parent && stop('orphaned'), PARENT_CHECK_MS).unref() : undefined
    void requested?.then(() => stop('requested'))
  })
}

/**
 * Writes this process's id to `path` (`--pid-file`), so that a script that started doppel through npx can
 * signal doppel itself; the returned function removes the file, if it still names this process.
 */
export function writePidFile(path: string): () => void {
  writeFileSync(path, `${process.pid}\n`)
  return () => {
    try {
      if (readFileSync(path, 'utf8').trim() === String(process.pid)) rmSync(path)
    } catch {
      // Already removed (or replaced by another run): nothing of ours to take away.
    }
  }
}
