/**
 * When a long-running command (`serve`, `record`, `compare`) stops: on SIGINT or SIGTERM to doppel's own
 * process, or, when npm started it (`npx`, `npm exec`, an npm script), once the process npm started it
 * under is gone. npm 11 runs the bin as `sh -c …` and passes neither signal on: a SIGTERM to npx kills
 * the shell and leaves doppel running with a new parent, so a changed parent process id is the sign.
 */
/** How often the parent is checked: well inside the second in which doppel promises to stop. */
const PARENT_CHECK_MS = 200

/** When a long-running command should stop; watched from before it starts listening. */
export interface StopWatch {
  /** Resolves on SIGINT, SIGTERM or, under npm, the parent's end. */
  readonly stopped: Promise<void>
  /** Aborted at the same moment: hands the stop to work under way (a start still loading fixtures). */
  readonly signal: AbortSignal
  /** Stops watching (the signals' default, ending the process, applies again). */
  dispose(): void
}

/**
 * Watches for the stop from the moment it is called: a command calls it before it listens, so a signal
 * sent as soon as its ready line appears, or npm's shell ending then, is not missed (the parent is the
 * one the command started under). The listeners go at the first stop, so a second signal while stopping
 * ends the process at once (Node's default). npm sets `npm_lifecycle_event` for what it runs; a doppel
 * started otherwise may outlive its parent.
 */
export function watchForStop(env: NodeJS.ProcessEnv = process.env): StopWatch {
  const parent = process.ppid
  let resolve!: () => void
  const stopped = new Promise<void>((done) => (resolve = done))
  const controller = new AbortController()
  // The check alone never keeps the process alive; the server's listener does.
  const watch = env.npm_lifecycle_event === undefined ? undefined : setInterval(() => process.ppid !== parent && stop(), PARENT_CHECK_MS).unref()
  function dispose(): void {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
    clearInterval(watch)
  }
  function stop(): void {
    dispose()
    controller.abort(new Error('stopped while starting'))
    resolve()
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  return { stopped, signal: controller.signal, dispose }
}
