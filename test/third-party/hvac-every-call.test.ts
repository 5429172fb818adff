// hvac's every aws auth call but the logins (python/hvac_every_call.py), against `doppel serve --profile vault`:
// the same answers, call by call, as the real server gave (python/hvac_every_call.expected.jsonl, which
// test/real-server/hvac-every-call.test.ts holds to the real server): configuration, certificates, STS roles,
// tidy settings, roles, role tags, the deny and access lists by hvac's older names, and the refusals between.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HVAC_EVERY_CALL, pythonModulesPresent, VENV_HINT, VENV_PYTHON } from './python-modules.ts'
import { stopGently } from './cloud-setup.ts'
import { startServe, type ServeProcess } from '../server/serve-process.ts'

const present = pythonModulesPresent(['hvac'], VENV_PYTHON)
if (!present) console.warn(`hvac test skipped: ${VENV_PYTHON} is missing (${VENV_HINT})`)

describe.skipIf(!present)("hvac's every aws auth call against doppel serve --profile vault", () => {
  let serve: ServeProcess
  beforeAll(async () => {
    serve = await startServe(['--profile', 'vault'])
    const enabled = await fetch(`${serve.url}/v1/sys/auth/${HVAC_EVERY_CALL.mount}`, { method: 'POST', headers: { 'X-Vault-Token': 'root' }, body: '{"type":"aws"}' })
    expect(enabled.status).toBe(204)
  })
  afterAll(() => stopGently(serve))

  it('answers each as the real server did', { timeout: 60_000 }, async () => {
    const { stdout } = await promisify(execFile)(VENV_PYTHON, [HVAC_EVERY_CALL.script, serve.url, 'root', HVAC_EVERY_CALL.mount], { timeout: 50_000 })
    expect(stdout.trimEnd().split('\n')).toEqual(HVAC_EVERY_CALL.expected())
  })
})
