// hvac's every aws auth call but the logins (test/third-party/python/hvac_every_call.py), against the real
// server on a new mount: its answers are the ones the main run holds doppel to (hvac_every_call.expected.jsonl).
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HVAC_EVERY_CALL, VENV_PYTHON } from '../third-party/python-modules.ts'
import { realServer } from './real-server-env.ts'

const server = realServer()

describe.skipIf(!server)("hvac's every aws auth call against the real server", () => {
  const sysAuth = (method: string) =>
    fetch(`${server!.addr}/v1/sys/auth/${HVAC_EVERY_CALL.mount}`, { method, headers: { 'X-Vault-Token': server!.token }, ...(method === 'POST' && { body: '{"type":"aws"}' }) })
  beforeAll(async () => expect((await sysAuth('POST')).status).toBe(204))
  afterAll(async () => void (await sysAuth('DELETE')))

  it('answers each as the recorded answers say', { timeout: 60_000 }, async () => {
    const { stdout } = await promisify(execFile)(VENV_PYTHON, [HVAC_EVERY_CALL.script, server!.addr, server!.token, HVAC_EVERY_CALL.mount], { timeout: 50_000 })
    expect(stdout.trimEnd().split('\n')).toEqual(HVAC_EVERY_CALL.expected())
  })
})
