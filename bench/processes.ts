// The processes the bench starts beside itself: servers pinned to a core, and the load generator.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

const CLIENT = fileURLToPath(new URL('./load-client.ts', import.meta.url))

export const canPin = (() => {
  try {
    execFileSync('taskset', ['-c', '0', 'true'])
    execFileSync('taskset', ['-c', '1', 'true'])
    return true
  } catch {
    return false
  }
})()

/** The command line that runs `command` on `core` when taskset is there, as it is otherwise. */
export const pinned = (core: number, command: string, args: string[]): [string, string[]] =>
  canPin ? ['taskset', ['-c', String(core), command, ...args]] : [command, args]

/**
 * Ends a process and waits until it has: the next section must not share the machine with a server still
 * shutting down (a JVM takes a while). SIGKILL after 2 s.
 */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 2_000)
    child.once('exit', () => {
      clearTimeout(kill)
      resolve()
    })
    child.kill()
  })
}

export interface LoadResult {
  /** Answers received. */
  total: number
  /**
   * Requests sent: the answers received and the ones in flight when the run stopped (one a connection at
   * most), which the server has answered too by the time the result is back (counted 2026-11-30).
   */
  sent: number
  non2xx: number
  errors: number
}

/**
 * The load generator (`load-client.ts`: autocannon, 16 connections): one long-lived process, on `core`
 * when one is given, fed one run per line, so its start-up is paid once.
 */
export class LoadGenerator {
  #child: ChildProcess
  #lines: AsyncIterator<string>

  constructor(core?: number) {
    const [command, args] = core === undefined ? [process.execPath, [CLIENT]] : pinned(core, process.execPath, [CLIENT])
    this.#child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] })
    this.#lines = createInterface({ input: this.#child.stdout! })[Symbol.asyncIterator]()
  }

  /** One autocannon run: `config` is autocannon's options (url, method, headers, body or requests; duration in seconds). */
  async run(config: Record<string, unknown>): Promise<LoadResult> {
    this.#child.stdin!.write(JSON.stringify(config) + '\n')
    const { value, done } = await this.#lines.next()
    if (done) throw new Error('the load generator exited')
    return JSON.parse(value) as LoadResult
  }

  stop(): Promise<void> {
    return stopChild(this.#child)
  }
}
