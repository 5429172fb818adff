// The bundled conformance suite against a separately started `doppel serve` process: the same
// scenarios, the same verdicts as on the in-process emulator.
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
  // The only skips are the vault profile's scenarios: `doppel serve` runs the service profile.
  expect(last).toMatch(/^\d+ passed, 0 failed, \d+ skipped$/)
  const skips = out.split('\n').filter((line) => line.includes('(skipped: '))
  expect(skips.filter((line) => !line.includes('this scenario is for vault')), out.slice(-4000)).toEqual([])
  expect(code, out.slice(-4000)).toBe(0)
})
