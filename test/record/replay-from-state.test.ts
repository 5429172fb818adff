// A session recorded in front of a seeded `doppel serve` started with fixtures replays green on the
// emulator and on a fresh server started the same way (twice): the recorder captured the upstream's
// starting state (--upstream-token) and the scenario restores it first.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { main } from '../../src/cli/main.ts'
import { startRecord } from '../../src/cli/record-command.ts'
import { fakeIo } from '../cli/helpers.ts'

const bin = new URL('../../bin/doppel.js', import.meta.url).pathname
const fixtures = new URL('../../scenarios/fixtures/example.yaml', import.meta.url).pathname
const children: ChildProcess[] = []
const temps: string[] = []

/** A `doppel serve --fixtures example.yaml --seed 1` child process (or a plain one); its URL. */
async function seededServer(seeded = true): Promise<string> {
  const child = spawn(process.execPath, [bin, 'serve', ...(seeded ? ['--fixtures', fixtures, '--seed', '1'] : []), '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  const [line] = (await once(child.stdout!, 'data')) as [Buffer]
  return /listening on (\S+)/.exec(line.toString())![1]!
}

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL')
      await once(child, 'exit')
    }
  }
  for (const dir of temps) rmSync(dir, { recursive: true, force: true })
})

const admin = { 'X-Service-Token': 'root', 'Content-Type': 'application/json' }

/** A client call through the recorder that must succeed; its JSON answer. */
const caller =
  (base: string) =>
  async (method: string, path: string, body?: unknown, headers: Record<string, string> = admin): Promise<Record<string, any>> => {
    const response = await fetch(base + path, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) })
    const text = await response.text()
    expect(response.status, `${method} ${path}: ${text}`).toBeLessThan(300)
    return text ? (JSON.parse(text) as Record<string, any>) : {}
  }

describe('recorded in front of a seeded server with fixtures', () => {
  let file = ''
  let yaml = ''
  beforeAll(async () => {
    const upstream = await seededServer()
    const out = mkdtempSync(join(tmpdir(), 'doppel-record-state-'))
    temps.push(out)
    const session = (await startRecord(['--upstream', upstream, '--upstream-token', 'root', '--port', '0', '--out', out, '--name', 'seeded', '--quiet'], fakeIo().io))!
    const call = caller(session.url)
    try {
      // What the fixture made, with the faker's values (the bucket module's description, a principal's keys).
      await call('GET', '/v1/auth/cloud/role/web')
      await call('GET', '/api/v2/organizations/acme/registry-modules/private/acme/bucket/aws', undefined, { Authorization: 'Bearer root', 'X-Service-Token': '' })
      await call('GET', '/api/registry/v1/modules/acme/vpc/aws/versions', undefined, { Authorization: 'Bearer root', 'X-Service-Token': '' })
      // The fixture's instance logs in; a new one too (its id generated from the seed).
      const document = await call('POST', '/_doppel/cloud/identity-document', { instance_id: 'i-0123456789abcdef0', format: 'rsa2048' })
      const login = await call('POST', '/v1/auth/cloud/login', { role: 'web', pkcs7: String(document.value).replace(/\n/g, '') }, { 'Content-Type': 'application/json' })
      await call('GET', '/v1/auth/token/lookup-self', undefined, { 'X-Service-Token': login.auth.client_token })
      const instance = await call('POST', '/_doppel/cloud/instances', { ami_id: 'ami-0abc1234', account_id: '123456789012' })
      await call('GET', `/v1/auth/cloud/identity-accesslist/i-0123456789abcdef0`)
      expect(instance.instance_id).toMatch(/^i-/)
    } finally {
      await session.stop()
    }
    file = join(out, 'seeded.yaml')
    yaml = readFileSync(file, 'utf8')
  }, 60_000)

  test('the scenario restores the starting state first', () => {
    expect(yaml).toMatch(/steps:\n- id: start\n {2}request:\n {4}method: PUT\n {4}path: \/_doppel\/snapshot/)
    expect(yaml).toContain('i-0123456789abcdef0')
  })

  test('it replays green on the emulator', async () => {
    const { out, io } = fakeIo()
    expect(await main(['run', file, '--target', 'emulator'], io), out.stdout).toBe(0)
  })

  test('it replays green on a fresh server started the same way, twice', async () => {
    const fresh = await seededServer()
    for (let run = 0; run < 2; run++) {
      const { out, io } = fakeIo()
      expect(await main(['run', file, '--target', fresh], io), out.stdout).toBe(0)
    }
  }, 30_000)
})

describe('without the upstream\'s state (no --upstream-token)', () => {
  test('a role the session read before writing it joins the fixture, and the session replays green', async () => {
    const upstream = await seededServer(false)
    // Made before the recording, straight on the upstream: as on a server set up by someone else.
    const role = { auth_type: 'ec2', bound_ami_id: 'ami-0abc1234', token_policies: ['web'], token_ttl: '1h' }
    expect((await fetch(`${upstream}/v1/auth/cloud/role/web`, { method: 'POST', headers: admin, body: JSON.stringify(role) })).status).toBe(204)
    const out = mkdtempSync(join(tmpdir(), 'doppel-record-read-'))
    temps.push(out)
    const session = (await startRecord(['--upstream', upstream, '--port', '0', '--out', out, '--name', 'read', '--quiet'], fakeIo().io))!
    const call = caller(session.url)
    try {
      await call('GET', '/v1/auth/cloud/role/web')
      const instance = await call('POST', '/_doppel/cloud/instances', { ami_id: 'ami-0abc1234' })
      const document = await call('POST', '/_doppel/cloud/identity-document', { instance_id: instance.instance_id, format: 'rsa2048' })
      await call('POST', '/v1/auth/cloud/login', { role: 'web', pkcs7: String(document.value).replace(/\n/g, '') }, { 'Content-Type': 'application/json' })
    } finally {
      await session.stop()
    }
    const file = join(out, 'read.yaml')
    expect(readFileSync(file, 'utf8')).toMatch(/fixtures:\n {2}auth:\n {4}roles:\n {6}web:\n {8}allow_instance_migration: false/)
    for (const target of ['emulator', await seededServer(false)]) {
      const { out: output, io } = fakeIo()
      expect(await main(['run', file, '--target', target], io), output.stdout).toBe(0)
    }
  }, 30_000)
})

describe('--upstream-token', () => {
  test('a token the upstream refuses is one line and exit 1 at start', async () => {
    const upstream = await seededServer()
    const { out, io } = fakeIo()
    const dir = mkdtempSync(join(tmpdir(), 'doppel-record-token-'))
    temps.push(dir)
    const code = await main(['record', '--upstream', upstream, '--upstream-token', 'wrong', '--port', '0', '--out', dir], io)
    expect(code).toBe(1)
    expect(out.stderr).toMatch(/^doppel record: cannot read the upstream's state at .*\/_doppel\/snapshot: 403 [^\n]*permission denied[^\n]*\n$/)
  })
})
