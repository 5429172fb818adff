// hvac's token class, every call (test/third-party/python/hvac_token_calls.py), against the
// real server: its answers are the ones the main run holds doppel to (hvac_token_calls.expected.jsonl).
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { HVAC_TOKEN_CALLS, VENV_PYTHON } from '../third-party/python-modules.ts'
import { realServer } from './real-server-env.ts'

const server = realServer()

describe.skipIf(!server)("hvac's token calls against the real server", () => {
  it('answers each as the recorded answers say', { timeout: 60_000 }, async () => {
    const { stdout } = await promisify(execFile)(VENV_PYTHON, [HVAC_TOKEN_CALLS.script, server!.addr, server!.token], { timeout: 50_000 })
    expect(stdout.trimEnd().split('\n')).toEqual(HVAC_TOKEN_CALLS.expected())
  })
})
