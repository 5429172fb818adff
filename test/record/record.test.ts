import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { serve, type ServeHandle } from '../../src/cli/serve-command.ts'
import { startProxyCommand } from '../../src/record/proxy-command.ts'
import { runCommand } from '../../src/scenario/index.ts'
import { runClientSession } from './session.ts'

const quiet = () => {
  let out = ''
  let err = ''
  return { io: { stdout: (s: string) => (out += s), stderr: (s: string) => (err += s), cwd: process.cwd() }, out: () => out, err: () => err }
}

let upstream: ServeHandle
beforeAll(async () => {
  upstream = (await serve(['--port', '0', '--quiet'], quiet().io))!
})
afterAll(async () => upstream.close())

describe('doppel record against doppel serve', () => {
  let files: string[] = []
  let statuses: Record<string, number>
  let yaml = ''

  beforeAll(async () => {
    const out = mkdtempSync(join(tmpdir(), 'doppel-record-'))
    const console = quiet()
    const session = (await startProxyCommand('record', ['--upstream', upstream.main.url, '--port', '0', '--out', out, '--name', 'session', '--quiet'], console.io))!
    expect(console.out()).toBe(`doppel recording on ${session.url}\n`)
    statuses = await runClientSession(session.url)
    const stop = await fetch(`${session.url}/_doppel/record/stop`, { method: 'POST' })
    expect(stop.status).toBe(202)
    await session.stopRequested
    expect(await session.stop()).toBe(0)
    files = [...console.err().matchAll(/wrote (\S+)/g)].map((m) => m[1]!)
    yaml = readFileSync(files[0]!, 'utf8')
  }, 60_000)

  test('the session went through the proxy as against the server', () => {
    expect(statuses).toMatchObject({
      'role-write': 204,
      'role-read': 200,
      'role-list': 200,
      'role-404': 404,
      'ec2-login': 200,
      'lookup-self': 200,
      'iam-login': 200,
      tidy: 202,
      deprecate: 200,
      'read-version': 200,
    })
    expect(files).toEqual([expect.stringMatching(/session\.yaml$/)])
  })

  test('no secret or signed payload reaches the file', () => {
    expect(yaml).not.toMatch(/hvs\.[A-Za-z0-9]{8}/)
    expect(yaml).not.toMatch(/MII[A-Za-z0-9+/]{20}/)
    expect(yaml).not.toContain('Bearer root')
    expect(yaml).not.toMatch(/X-Service-Token: root/)
    expect(yaml).toContain('cloud.signedCallerIdentity')
    expect(yaml).toContain('cloud.identityDocument')
  })

  test('the scenario replays green on the emulator', async () => {
    const console = quiet()
    const code = await runCommand([files[0]!, '--target', 'emulator'], console.io)
    expect(code, console.out()).toBe(0)
    expect(console.out().trim().split('\n').at(-1)).toBe('1 passed, 0 failed, 0 skipped')
  })

  test('the scenario replays green on the server it was recorded from, twice', async () => {
    for (let run = 0; run < 2; run++) {
      const console = quiet()
      const code = await runCommand([files[0]!, '--target', upstream.main.url], console.io)
      expect(code, console.out()).toBe(0)
    }
  })
})
