import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { serve } from '../../src/cli/serve-command.ts'
import type { DoppelServer } from '../../src/index.ts'
import { main } from '../../src/cli/main.ts'
import { startCompare } from '../../src/cli/compare-command.ts'
import { runClientSession, type SessionOptions } from './session.ts'
import { tempDir } from '../support/temp-dir.ts'

const capture = () => {
  let out = ''
  let err = ''
  return { io: { stdout: (s: string) => (out += s), stderr: (s: string) => (err += s), cwd: process.cwd() }, out: () => out, err: () => err }
}

async function compareSession(upstreamUrl: string, session: SessionOptions) {
  const json = join(tempDir('compare'), 'diff.json')
  const console = capture()
  const proxy = (await startCompare(['--upstream', upstreamUrl, '--port', '0', '--json', json, '--quiet'], console.io))!
  expect(console.out()).toBe(`doppel comparing on ${proxy.url}\n`)
  const statuses = await runClientSession(proxy.url, session)
  const code = await proxy.stop()
  return { code, statuses, stdout: console.out(), stderr: console.err(), report: JSON.parse(readFileSync(json, 'utf8')) }
}

const servers: DoppelServer[] = []
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()))
})
async function upstream(...flags: string[]): Promise<string> {
  const handle = (await serve(['--port', '0', '--quiet', ...flags], capture().io))!
  servers.push(handle)
  return handle.main.url
}

describe('doppel compare', () => {
  test('against doppel serve, a whole session (ec2 and iam logins, tidy, deprecation) does not differ: exit 0', async () => {
    const result = await compareSession(await upstream(), {})
    expect(result.stderr).toBe('')
    expect(result.report).toMatchObject({ differing: 0, differences: [] })
    expect(result.report.exchanges).toBeGreaterThan(15)
    expect(result.stdout.trim().split('\n').at(-1)).toMatch(/^\d+ exchanges, 0 differ$/)
    expect(result.code).toBe(0)
  }, 60_000)

  test('against a server started with --allow-sha1, exactly the SHA-1 login differs: exit 4', async () => {
    const result = await compareSession(await upstream('--allow-sha1'), { ec2Format: 'pkcs7', skipLoginFollowUps: true })
    expect(result.statuses['ec2-login']).toBe(200)
    expect(result.code).toBe(4)
    expect(result.report.differing).toBe(1)
    const [entry] = result.report.differences
    expect(entry).toMatchObject({ method: 'POST', path: '/v1/auth/cloud/login' })
    expect(entry.differences).toEqual([
      { kind: 'status', path: 'status', upstream: 200, doppel: 400 },
      {
        kind: 'errors',
        path: '$.errors',
        doppel: ['failed to verify the signature: x509: cannot verify signature: insecure algorithm DSA-SHA1 (temporarily override with GODEBUG=x509sha1=1)'],
      },
    ])
    const lines = result.stderr.trim().split('\n')
    // One difference: its line, then why doppel refused (indented).
    expect(lines.filter((line) => !line.startsWith('  '))).toHaveLength(1)
    expect(lines[0]).toMatch(/^DIFF #\d+ POST \/v1\/auth\/cloud\/login: status 200 ≠ 400; \$\.errors — ≠ \["failed to verify the signature/)
    expect(lines[1]).toMatch(/^ {2}why \(doppel\): SHA-1 signatures: saw a signature whose certificate is signed with DSA-SHA1; expected a SHA-256 chain$/)
    expect(result.stdout).toMatch(/status\s+200\s+400/)
  }, 60_000)
})

describe('doppel compare as a process', () => {
  test('one listening line; SIGTERM prints the table and exits 4 when an exchange differed', async () => {
    const bin = new URL('../../bin/doppel.js', import.meta.url).pathname
    const child = spawn(process.execPath, [bin, 'compare', '--upstream', await upstream('--allow-sha1'), '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const [first] = (await once(child.stdout!, 'data')) as [Buffer]
    expect(first.toString()).toMatch(/^doppel comparing on http:\/\/127\.0\.0\.1:\d+\n$/)
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    await runClientSession(/on (\S+)/.exec(first.toString())![1]!, { ec2Format: 'pkcs7', skipLoginFollowUps: true, authOnly: true })
    child.kill('SIGTERM')
    const [code] = (await once(child, 'exit')) as [number]
    expect(stderr.trim().split('\n').filter((line) => !line.startsWith('  '))).toHaveLength(1)
    expect(stdout.trim().split('\n').at(-1)).toMatch(/^\d+ exchanges, 1 differ$/)
    expect(code).toBe(4)
  }, 30_000)
})

describe('usage errors', () => {
  test.each([
    [['record'], /^doppel record: --upstream <url> is required$/],
    [['record', '--upstream', 'http://127.0.0.1:8200'], /^doppel record: --out <dir> is required$/],
    [['record', '--upstream', 'ftp://x', '--out', 'x'], /^doppel record: --upstream ftp:\/\/x: the scheme is "ftp"; expected http or https$/],
    [['record', '--upstream', 'http://127.0.0.1:8200', '--out', 'x', '--split-by', 'moon'], /--split-by must be one of session, service/],
    [['record', '--upstream', 'http://127.0.0.1:8200', '--out', 'x', '--profile', 'vault'], /^doppel record: unknown option --profile \(did you mean --pid-file\?\)$/],
    [['compare', '--upstream', 'http://127.0.0.1:8200', '--out', 'x'], /^doppel compare: unknown option --out/],
    [['compare', '--upstream', 'http://127.0.0.1:8200', '--port', '70000'], /--port must be a port number/],
    [['compare', '--upstream', 'http://127.0.0.1:8200', '--seed', 'abc'], /^doppel compare: --seed must be an integer, not "abc"$/],
    [['compare', '--bogus'], /^doppel compare: unknown option --bogus$/],
  ])('doppel %j is one line, the pointer to --help, and exit 1', async (argv, message) => {
    const console = capture()
    expect(await main(argv, console.io)).toBe(1)
    expect(console.err().trimEnd().split('\n')).toEqual([expect.stringMatching(message), `Run "doppel ${argv[0]} --help" for usage.`])
    expect(console.out()).toBe('')
  })
})
