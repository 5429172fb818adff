/**
 * Vitest global setup: the run fails when the tests left a process they started, or a `doppel-*` folder
 * in the temp directory, behind. The run gets a temp directory of its own (TMPDIR, which `os.tmpdir()`
 * reads), so runs side by side on one machine do not see each other's folders; every process the tests
 * start inherits a marker in its environment, by which leftovers are found (on Linux, through /proc).
 * Leftovers are reported, then removed, so a failed run leaves nothing behind either.
 */
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isRunning } from './process-state.ts'

const MARKER = 'DOPPEL_TEST_RUN'
/** How long processes killed by the last tests get to finish exiting. */
const GRACE_MS = 2000

export default function setup(): () => Promise<void> {
  const outer = tmpdir()
  const dir = mkdtempSync(join(outer, 'doppel-test-run-'))
  const run = randomUUID()
  const restore = { TMPDIR: process.env.TMPDIR, [MARKER]: process.env[MARKER], NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE }
  // The CLI's compile cache lives in the temp directory by default: kept in the usual one across runs.
  process.env.NODE_COMPILE_CACHE ??= join(outer, 'node-compile-cache')
  process.env.TMPDIR = dir
  process.env[MARKER] = run

  return async () => {
    for (const [name, value] of Object.entries(restore)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
    let processes = markedProcesses(run)
    for (const started = performance.now(); processes.length > 0 && performance.now() - started < GRACE_MS; processes = markedProcesses(run)) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const folders = readdirSync(dir).filter((name) => name.startsWith('doppel-'))
    for (const { pid } of processes) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // Gone since.
      }
    }
    rmSync(dir, { recursive: true, force: true })
    const found = [
      ...processes.map(({ pid, command }) => `process ${pid} still running: ${command}`),
      ...folders.map((name) => `temp folder left behind: ${name}`),
    ]
    if (found.length > 0) throw new Error(`the tests left behind (now removed):\n  ${found.join('\n  ')}`)
  }
}

/** Running processes other than this one whose environment carries the run's marker. */
function markedProcesses(run: string): { pid: number; command: string }[] {
  if (!existsSync('/proc/self/environ')) return []
  const wanted = `${MARKER}=${run}`
  const found: { pid: number; command: string }[] = []
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry)
    if (!Number.isInteger(pid) || pid === process.pid) continue
    try {
      if (!readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(wanted) || !isRunning(pid)) continue
      found.push({ pid, command: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() })
    } catch {
      // Another user's process, or one that ended while being read.
    }
  }
  return found
}
