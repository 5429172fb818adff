/**
 * When a long-running command (`serve`, `record`, `compare`) stops: on SIGINT or SIGTERM to doppel's own
 * process, or, when npm started it (`npx`, `npm exec`, an npm script), once the process npm started it
 * under is gone. npm 11 runs the bin as `sh -c …` and passes neither signal on: a SIGTERM to npx kills
 * the shell and leaves doppel running with a new parent, so a changed parent process id is the sign.
 */
import { rmSync, readFileSync, writeFileSync } from 'node:fs'

/** How often the parent is checked: well inside the second in which doppel promises to stop. */
const PARENT_CHECK_MS = 200

/**
 * Resolves once the command should stop, or once `requested` resolves (a stop asked for over HTTP). Its
 * listeners go with it, so a second signal while stopping ends the process at once (Node's default).
 * npm sets `npm_lifecycle_event` for what it runs; a doppel started otherwise may outlive its parent.
 */
export function untilStopped(requested?: Promise<unknown>, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve) => {
    const parent = process.ppid
    const stop = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      clearInterval(watch)
      resolve()
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
    // The check alone never keeps the process alive; the server's listener does.
    const watch = env.npm_lifecycle_event === undefined ? undefined : setInterval(() => process.ppid !== parent && stop(), PARENT_CHECK_MS).unref()
    void requested?.then(stop)
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
