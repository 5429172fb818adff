import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { serve } from '../../src/cli/serve-command.ts'
import type { DoppelServer } from '../../src/index.ts'
import { main } from '../../src/cli/main.ts'
import { startRecord } from '../../src/cli/record-command.ts'
import { closedPort } from '../support/closed-port.ts'
import { runClientSession } from './session.ts'
import { tempDir } from '../support/temp-dir.ts'

const quiet = () => {
  let out = ''
  let err = ''
  return { io: { stdout: (s: string) => (out += s), stderr: (s: string) => (err += s), cwd: process.cwd() }, out: () => out, err: () => err }
}

let upstream: DoppelServer
beforeAll(async () => {
  upstream = (await serve(['--port', '0', '--quiet'], quiet().io))!
})
afterAll(async () => upstream.close())

describe('doppel record against doppel serve', () => {
  let files: string[] = []
  let statuses: Record<string, number>
  let yaml = ''

  beforeAll(async () => {
    const out = tempDir('record')
    const console = quiet()
    const session = (await startRecord(['--upstream', upstream.main.url, '--port', '0', '--out', out, '--name', 'session', '--quiet'], console.io))!
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
      'instance-state': 200,
      'ec2-login-stopped': 400,
      'principal-gone': 204,
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
    expect(yaml).toContain('cloud.setInstanceState')
    expect(yaml).toContain('cloud.deletePrincipal')
  })

  test('the scenario replays green on the emulator', async () => {
    const console = quiet()
    const code = await main(['run', files[0]!, '--target', 'emulator'], console.io)
    expect(code, console.out()).toBe(0)
    expect(console.out().trim().split('\n').at(-1)).toBe('1 passed, 0 failed, 0 skipped')
  })

  test('the scenario replays green on the server it was recorded from, twice', async () => {
    for (let run = 0; run < 2; run++) {
      const console = quiet()
      const code = await main(['run', files[0]!, '--target', upstream.main.url], console.io)
      expect(code, console.out()).toBe(0)
    }
  })
})

describe('doppel record as a process', () => {
  test('one listening line; SIGINT writes one scenario per service; secrets stay out of the files', async () => {
    const out = tempDir('record-cli')
    const bin = new URL('../../bin/doppel.js', import.meta.url).pathname
    const child = spawn(process.execPath, [bin, 'record', '--upstream', upstream.main.url, '--port', '0', '--out', out, '--split-by', 'service', '--name', 'cli', '--quiet'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const [first] = (await once(child.stdout!, 'data')) as [Buffer]
    expect(first.toString()).toMatch(/^doppel recording on http:\/\/127\.0\.0\.1:\d+\n$/)
    const base = /on (\S+)/.exec(first.toString())![1]!
    const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'
    const mount = '/v1/auth/cloud'
    const headers = { 'X-Service-Token': 'root', 'Content-Type': 'application/json' }
    expect((await fetch(`${base}${mount}/config/client`, { method: 'POST', headers, body: JSON.stringify({ access_key: 'AKIAIOSFODNN7EXAMPLE', secret_key: secret }) })).status).toBe(204)
    expect((await fetch(`${base}${mount}/config/client`, { headers })).status).toBe(200)
    expect((await fetch(`${base}${mount}/config/client`, { method: 'DELETE', headers })).status).toBe(204)
    expect((await fetch(`${base}/api/v2/ping`)).status).toBe(200)
    expect((await fetch(`${base}/_doppel/record/stop`)).status).toBe(405)
    child.kill('SIGINT')
    const [code] = (await once(child, 'exit')) as [number]
    expect(code).toBe(0)
    expect(readdirSync(out).sort()).toEqual(['cli-auth.yaml', 'cli-registry.yaml'])
    expect(stderr).toContain(`wrote ${join(out, 'cli-auth.yaml')}`)
    const auth = readFileSync(join(out, 'cli-auth.yaml'), 'utf8')
    expect(auth).not.toContain(secret)
    expect(auth).not.toContain('AKIAIOSFODNN7EXAMPLE')
    expect(auth).toContain('secret_key: ${{ vars.secret_key }}')
    expect(auth).toContain("${{ env.DOPPEL_SECRET_SECRET_KEY || 'redacted-secret_key' }}")
    expect(readFileSync(join(out, 'cli-registry.yaml'), 'utf8')).toContain('/api/v2/ping')
    for (const file of ['cli-auth.yaml', 'cli-registry.yaml']) {
      const console = quiet()
      expect(await main(['run', join(out, file), '--target', 'emulator'], console.io), console.out()).toBe(0)
    }
  }, 30_000)

  test('an unreachable upstream is a 502 in the service error style, and the proxy keeps going', async () => {
    const console = quiet()
    const out = tempDir('record')
    const upstream = `http://127.0.0.1:${await closedPort()}`
    const session = (await startRecord(['--upstream', upstream, '--port', '0', '--out', out, '--quiet'], console.io))!
    const response = await fetch(`${session.url}/v1/auth/cloud/role/x`)
    expect(response.status).toBe(502)
    expect(((await response.json()) as { errors: string[] }).errors[0]).toMatch(new RegExp(`^doppel: upstream ${upstream} did not answer`))
    expect(await session.stop()).toBe(0)
  })
})

describe('an ec2 login whose document the session did not fetch (a real instance)', () => {
  test('becomes a fake-cloud instance with the document’s image, account and region, and replays green', async () => {
    const out = tempDir('record')
    const console = quiet()
    const session = (await startRecord(['--upstream', upstream.main.url, '--port', '0', '--out', out, '--name', 'real', '--quiet'], console.io))!
    const admin = { 'X-Service-Token': 'root', 'Content-Type': 'application/json' }
    // Straight to the upstream, not through the proxy: as a real instance gets its document from IMDS.
    const instance = (await (await fetch(`${upstream.main.url}/_doppel/cloud/instances`, { method: 'POST', headers: admin, body: JSON.stringify({ ami_id: 'ami-0def5678' }) })).json()) as { instance_id: string }
    const document = (await (await fetch(`${upstream.main.url}/_doppel/cloud/identity-document`, { method: 'POST', headers: admin, body: JSON.stringify({ instance_id: instance.instance_id, format: 'rsa2048' }) })).json()) as { value: string }
    await fetch(`${session.url}/v1/auth/cloud/role/real`, { method: 'POST', headers: admin, body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-0def5678' }) })
    const login = await fetch(`${session.url}/v1/auth/cloud/login`, { method: 'POST', body: JSON.stringify({ role: 'real', pkcs7: document.value.replace(/\n/g, '') }) })
    expect(login.status, await login.text()).toBe(200)
    expect(await session.stop()).toBe(0)
    const yaml = readFileSync(join(out, 'real.yaml'), 'utf8')
    expect(yaml).toContain('cloud.createInstance')
    expect(yaml).toContain('ami_id: ami-0def5678')
    expect(yaml).not.toContain(instance.instance_id)
    expect(yaml).not.toContain(document.value.slice(0, 40))
    const replay = quiet()
    expect(await main(['run', join(out, 'real.yaml'), '--target', 'emulator'], replay.io), replay.out()).toBe(0)
  })
})
