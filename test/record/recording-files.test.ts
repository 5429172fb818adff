// A long session: each exchange rewrites its scenario, so the cost per exchange must not grow with the
// square of what came before (the value lookup rebuilt one pattern of every recorded value per exchange:
// 47 s to build 2000 exchanges).
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { RecordingFiles } from '../../src/faces/record/index.ts'
import { parseScenario } from '../../src/faces/scenario/index.ts'
const out = mkdtempSync(join(tmpdir(), 'doppel-record-long-'))
afterAll(() => rmSync(out, { recursive: true, force: true }))

test('2000 exchanges, each with a generated id, are written as they come in seconds, and the file is a scenario', async () => {
  const files = await RecordingFiles.open({ out, splitBy: 'session', name: 'long' })
  const started = performance.now()
  for (let i = 0; i < 2000; i++) {
    await files.add({
      method: 'POST',
      target: `/v1/auth/cloud/role/r${i}`,
      requestHeaders: [['content-type', 'application/json']],
      requestBody: Buffer.from(JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-0abc1234' })),
      status: 200,
      responseHeaders: [['content-type', 'application/json']],
      responseBody: Buffer.from(JSON.stringify({ request_id: randomUUID(), data: { note: `role r${i}` } })),
    })
  }
  expect(performance.now() - started).toBeLessThan(20_000)
  const scenario = parseScenario(readFileSync(join(out, 'long.yaml'), 'utf8'), 'long.yaml')
  expect(scenario.steps).toHaveLength(2000)
}, 60_000)
