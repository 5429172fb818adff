// The bundled conformance suite against a separately started `doppel serve` process: the same
// scenarios, the same verdicts as on the in-process emulator.
import { allPassedOn } from '../support/profile-scenarios.ts'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { main } from '../../src/cli/main.ts'

const BIN = new URL('../../bin/doppel.js', import.meta.url).pathname
let server: ChildProcess
let url: string

beforeAll(async () => {
  server = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] })
  const [line] = (await once(server.stdout!, 'data')) as [Buffer]
  url = /listening on (\S+)/.exec(line.toString())![1]!
})
afterAll(async () => {
  server.kill('SIGTERM')
  await once(server, 'exit')
})

it('doppel conformance --target <doppel serve URL> passes every scenario', { timeout: 120_000 }, async () => {
  let out = ''
  const code = await main(['conformance', '--target', url], { stdout: (s) => (out += s), stderr: (s) => (out += s), cwd: process.cwd() })
  const last = out.trim().split('\n').at(-1)!
  expect(last).toMatch(allPassedOn('service'))
  expect(code, out.slice(-4000)).toBe(0)
})
