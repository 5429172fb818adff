import { execFileSync } from 'node:child_process'

export const PYTHON = process.env.DOPPEL_TEST_PYTHON ?? '/usr/bin/python3'

/**
 * The virtual environment `.ci/run` makes with today's clients from the Python registry (hvac, boto3, moto's
 * server, schemathesis), pinned in test/third-party/python/requirements.txt.
 */
export const CLIENTS_VENV = new URL('../../.venv-clients/bin/', import.meta.url).pathname
export const VENV_PYTHON = `${CLIENTS_VENV}python`

/** How to make the virtual environment, for a skipped test's warning. */
export const VENV_HINT = '/usr/bin/python3 -m venv .venv-clients && .venv-clients/bin/pip install --require-hashes -r test/third-party/python/requirements.txt'

/**
 * Whether `python` can import `modules`. CI installs the Debian packages and the virtual environment
 * (.ci/run), so there a missing client is a failure, not a skip: true under CI whatever the answer.
 */
export function pythonModulesPresent(modules: string[], python = PYTHON): boolean {
  if (process.env.CI === 'true') return true
  try {
    execFileSync(python, ['-c', `import ${modules.join(', ')}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}
