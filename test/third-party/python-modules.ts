import { execFileSync } from 'node:child_process'

export const PYTHON = process.env.DOPPEL_TEST_PYTHON ?? '/usr/bin/python3'

/**
 * Whether Python can import `modules`. CI installs the Debian packages (.ci/run), so there a missing client
 * is a failure, not a skip: true under CI whatever the answer.
 */
export function pythonModulesPresent(modules: string[]): boolean {
  if (process.env.CI === 'true') return true
  try {
    execFileSync(PYTHON, ['-c', `import ${modules.join(', ')}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}
