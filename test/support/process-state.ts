import { existsSync, readFileSync } from 'node:fs'

/**
 * Whether process `pid` runs. One that exited but was not reaped yet (a zombie: its parent, often the
 * init that adopted an orphan, has not waited for it) does not; Linux shows that state in /proc.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    // The state follows the command name, which is in parentheses and may hold any character.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return !existsSync('/proc')
  }
}
