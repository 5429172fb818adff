// hvac's token class, every call (python/hvac_token_calls.py), against `doppel serve
// --profile vault`: the same answers, call by call, as the real server gave (python/hvac_token_calls.expected.jsonl,
// which test/real-server/hvac-token-calls.test.ts holds to the real server): creation with each option, a batch
// token, a custom id, orphans, lookups, renewals, what a default-policy token and a root child may do, the
// tidy, revocation of a tree and of a parent whose children are left, and token roles with a token made
// against one.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HVAC_TOKEN_CALLS, pythonModulesPresent, VENV_HINT, VENV_PYTHON } from './python-modules.ts'
import { stopGently } from './cloud-setup.ts'
import { startServe, type ServeProcess } from '../server/serve-process.ts'

const present = pythonModulesPresent(['hvac'], VENV_PYTHON)
if (!present) console.warn(`hvac test skipped: ${VENV_PYTHON} is missing (${VENV_HINT})`)

describe.skipIf(!present)("hvac's token calls against doppel serve --profile vault", () => {
  let serve: ServeProcess
  beforeAll(async () => {
    serve = await startServe(['--profile', 'vault'])
  })
  afterAll(() => stopGently(serve))

  it('answers each as the real server did', { timeout: 60_000 }, async () => {
    const { stdout } = await promisify(execFile)(VENV_PYTHON, [HVAC_TOKEN_CALLS.script, serve.url, 'root'], { timeout: 50_000 })
    expect(stdout.trimEnd().split('\n')).toEqual(HVAC_TOKEN_CALLS.expected())
  })
})
