import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

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

/**
 * Every call of hvac's aws auth method class but the logins, run against one new mount (`hvac_every_call.py`),
 * and the answers the real server gave them, a line a call (`hvac_every_call.expected.jsonl`): the main run
 * holds `doppel serve --profile vault` to them, the real-server run the real server.
 */
export const HVAC_EVERY_CALL = {
  script: new URL('./python/hvac_every_call.py', import.meta.url).pathname,
  mount: 'hvac-every-call',
  expected: () => readFileSync(new URL('./python/hvac_every_call.expected.jsonl', import.meta.url), 'utf8').trimEnd().split('\n'),
}

/**
 * hvac's token class, every call (`hvac_token_calls.py`), and the answers the real server
 * gave them, a line a call (`hvac_token_calls.expected.jsonl`): the main run holds `doppel serve --profile
 * vault` to them, the real-server run the real server.
 */
export const HVAC_TOKEN_CALLS = {
  script: new URL('./python/hvac_token_calls.py', import.meta.url).pathname,
  expected: () => readFileSync(new URL('./python/hvac_token_calls.expected.jsonl', import.meta.url), 'utf8').trimEnd().split('\n'),
}
