// A corpus of credentials planted in every place a client puts them (headers, query parameters, JSON at
// any depth, form bodies, an ec2 login's nonce): none of them may reach a file the recorder writes.
import aws4 from 'aws4'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { main } from '../../src/cli/main.ts'
import { startRecord } from '../../src/cli/record-command.ts'
import { serve } from '../../src/cli/serve-command.ts'
import type { DoppelServer } from '../../src/index.ts'
import { SECRET_HEADERS } from '../../src/faces/record/index.ts'
import { fakeIo } from '../cli/helpers.ts'

const temps: string[] = []
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'doppel-record-secrets-'))
  temps.push(dir)
  return dir
}
let upstream: DoppelServer
beforeAll(async () => {
  upstream = (await serve(['--port', '0', '--quiet'], fakeIo().io))!
})
afterAll(async () => {
  await upstream.close()
  for (const dir of temps) rmSync(dir, { recursive: true, force: true })
})

const planted = (what: string) => `planted-${what}-Q7xZ`
const admin = { 'X-Service-Token': 'root', 'Content-Type': 'application/json' }

describe('secrets planted in a recorded session', () => {
  let out = ''
  let contents = ''
  const secrets: string[] = []
  const plant = (what: string) => {
    const value = planted(what)
    secrets.push(value)
    return value
  }

  beforeAll(async () => {
    out = join(temp(), 'recorded')
    const session = (await startRecord(['--upstream', upstream.main.url, '--port', '0', '--out', out, '--name', 'secrets', '--quiet'], fakeIo().io))!
    const call = (path: string, init: RequestInit = {}) => fetch(session.url + path, init).then(async (response) => ({ status: response.status, text: await response.text() }))
    try {
      for (const name of SECRET_HEADERS) {
        const value = name === 'authorization' ? `Bearer ${plant(name)}` : plant(name)
        await call('/v1/auth/cloud/config/client', { headers: { ...admin, [name]: value } })
      }
      const query = [
        `X-Amz-Credential=${plant('credential')}%2F20260101%2Fus-east-1%2Fsts%2Faws4_request`,
        `X-Amz-Signature=${plant('signature')}`,
        `X-Amz-Security-Token=${plant('security-token')}`,
        `token=${plant('query-token')}`,
      ].join('&')
      await call(`/v1/auth/cloud/roles?list=true&${query}`, { headers: admin })
      await call('/v1/auth/cloud/config/client', {
        method: 'POST',
        headers: { 'X-Service-Token': 'root', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `access_key=${plant('form-access-key')}&secret_key=${plant('form-secret-key')}`,
      })
      expect(
        (await call('/v1/auth/cloud/config/client', { method: 'POST', headers: admin, body: JSON.stringify({ access_key: plant('access-key'), secret_key: plant('secret-key') }) })).status,
      ).toBe(204)
      // Read back: the answer echoes the access key.
      expect((await call('/v1/auth/cloud/config/client', { headers: admin })).text).toContain(planted('access-key'))
      // Made-up keys would send the login's instance check to a cloud that refuses them.
      await call('/v1/auth/cloud/config/client', { method: 'DELETE', headers: admin })
      await call('/v1/auth/token/lookup', { method: 'POST', headers: admin, body: JSON.stringify({ token: plant('lookup-token'), nested: [{ client_token: plant('client-token') }] }) })
      await call('/v1/auth/cloud/role/web', { method: 'POST', headers: admin, body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-0abc1234' }) })
      const instance = JSON.parse((await call('/_doppel/cloud/instances', { method: 'POST', headers: admin, body: JSON.stringify({ ami_id: 'ami-0abc1234' }) })).text) as { instance_id: string }
      const document = JSON.parse((await call('/_doppel/cloud/identity-document', { method: 'POST', headers: admin, body: JSON.stringify({ instance_id: instance.instance_id }) })).text) as { value: string }
      const login = await call('/v1/auth/cloud/login', { method: 'POST', body: JSON.stringify({ role: 'web', pkcs7: document.value.replace(/\n/g, ''), nonce: plant('nonce') }) })
      expect(login.status, login.text).toBe(200)
      const token = (JSON.parse(login.text) as { auth: { client_token: string } }).auth.client_token
      secrets.push(token)
      expect((await call('/v1/auth/token/lookup-self', { headers: { 'X-Service-Token': token } })).status).toBe(200)
      const jsonApi = { Authorization: 'Bearer root', 'X-Service-Token': '', 'Content-Type': 'application/vnd.api+json' }
      await call('/api/v2/organizations/acme/registry-modules', { method: 'POST', headers: jsonApi, body: JSON.stringify({ data: { type: 'registry-modules', attributes: { name: 'vpc', provider: 'aws', token: plant('jsonapi-token') } } }) })
    } finally {
      await session.stop()
    }
    contents = readdirSync(out)
      .map((file) => readFileSync(join(out, file), 'utf8'))
      .join('\n')
  }, 60_000)

  test('none of them is in a file the recorder wrote', () => {
    expect(secrets.length).toBeGreaterThan(20)
    for (const secret of secrets) expect(contents, secret).not.toContain(secret)
    expect(contents).not.toContain('Bearer root')
  })

  test('the login nonce and the token it handed out are written as a var and a capture', () => {
    expect(contents).toContain('nonce: ${{ vars.nonce }}')
    expect(contents).toMatch(/x-service-token: \$\{\{ steps\.s\d+\.client_token \}\}/i)
    expect(contents).toMatch(/secret_key=\$\{\{ vars\.secret_key(_\d)? \| urlencode \}\}/)
  })

  test('the files are 0600 in a directory doppel made 0700', () => {
    expect(statSync(out).mode & 0o777).toBe(0o700)
    for (const file of readdirSync(out)) expect(statSync(join(out, file)).mode & 0o777, file).toBe(0o600)
  })
})

describe('an iam login signed with a session, in each encoding of its signed headers', () => {
  test('neither the session token nor the signature is in a file the recorder wrote', async () => {
    const out = temp()
    const session = (await startRecord(['--upstream', upstream.main.url, '--port', '0', '--out', out, '--name', 'iam-forms', '--quiet'], fakeIo().io))!
    const secrets: string[] = []
    try {
      const role = (await (await fetch(`${upstream.main.url}/_doppel/cloud/principals`, { method: 'POST', headers: admin, body: JSON.stringify({ type: 'role', name: 'recorded-session' }) })).json()) as Record<string, string>
      await fetch(`${session.url}/v1/auth/cloud/role/recorded-session`, { method: 'POST', headers: admin, body: JSON.stringify({ auth_type: 'iam', bound_iam_principal_arn: role.arn }) })
      secrets.push(role.session_token!, role.secret_access_key!)
      const signed = () => {
        const request = { host: 'sts.amazonaws.com', path: '/', method: 'POST', service: 'sts', region: 'us-east-1', body: 'Action=GetCallerIdentity&Version=2011-06-15', headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' } as Record<string, string> }
        aws4.sign(request, { accessKeyId: role.access_key_id, secretAccessKey: role.secret_access_key, sessionToken: role.session_token })
        const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name.toLowerCase() !== 'host').map(([k, v]) => [k, String(v)]))
        secrets.push(/Signature=([0-9a-f]{64})/.exec(headers.Authorization!)![1]!)
        const fields = { role: 'recorded-session', iam_http_request_method: 'POST', iam_request_url: Buffer.from('https://sts.amazonaws.com/').toString('base64'), iam_request_body: Buffer.from(request.body).toString('base64') }
        return { headers, fields }
      }
      const bodies: [string, string][] = [
        (() => { const { headers, fields } = signed(); return ['application/json', JSON.stringify({ ...fields, iam_request_headers: headers })] as [string, string] })(),
        (() => { const { headers, fields } = signed(); return ['application/json', JSON.stringify({ ...fields, iam_request_headers: Object.entries(headers).map(([k, v]) => `${k}:${v}`) })] as [string, string] })(),
        (() => { const { headers, fields } = signed(); return ['application/json', JSON.stringify({ ...fields, iam_request_headers: JSON.stringify(headers) })] as [string, string] })(),
        (() => { const { headers, fields } = signed(); return ['application/json', JSON.stringify({ ...fields, iam_request_headers: headers }).replace('"iam_request_headers"', '"iam_request_h\\u0065aders"')] as [string, string] })(),
        (() => { const { headers, fields } = signed(); return ['application/x-www-form-urlencoded', new URLSearchParams({ ...fields, iam_request_headers: Buffer.from(JSON.stringify(headers)).toString('base64') }).toString()] as [string, string] })(),
      ]
      for (const [type, body] of bodies) {
        const login = await fetch(`${session.url}/v1/auth/cloud/login`, { method: 'POST', headers: { 'Content-Type': type }, body })
        expect(login.status, await login.text()).toBe(200)
      }
    } finally {
      await session.stop()
    }
    const contents = readdirSync(out).map((file) => readFileSync(join(out, file), 'utf8')).join('\n')
    const decoded = [...contents.matchAll(/[A-Za-z0-9+/]{16,}={0,2}/g)].map(([run]) => Buffer.from(run, 'base64').toString('latin1')).join('\n')
    expect(secrets).toHaveLength(7)
    for (const secret of secrets) {
      expect(contents, secret).not.toContain(secret)
      expect(decoded, secret).not.toContain(secret)
    }
  }, 60_000)
})

describe('a secret a fixture sets and a later call sends', () => {
  test('is one var in both places, and the session replays green without it in the environment', async () => {
    const out = temp()
    const session = (await startRecord(['--upstream', upstream.main.url, '--port', '0', '--out', out, '--name', 'fixture', '--quiet'], fakeIo().io))!
    const token = planted('fixture-token')
    try {
      // An organisation of its own: the shared upstream holds the other session's modules in acme.
      const fixture = { version: 1, registry: { organizations: ['tokens-org'], tokens: [{ token, organizations: ['tokens-org'] }] } }
      expect((await fetch(`${session.url}/_doppel/fixtures`, { method: 'POST', headers: admin, body: JSON.stringify(fixture) })).status).toBe(201)
      const read = await fetch(`${session.url}/api/v2/organizations/tokens-org/registry-modules`, { headers: { Authorization: `Bearer ${token}`, 'X-Service-Token': '' } })
      expect(read.status).toBe(200)
    } finally {
      await session.stop()
    }
    const yaml = readFileSync(join(out, 'fixture.yaml'), 'utf8')
    expect(yaml).not.toContain(token)
    expect(yaml).toContain("token: ${{ env.DOPPEL_SECRET_TOKEN || 'redacted-token' }}")
    expect(yaml).toContain('Bearer ${{ vars.token }}')
    const replay = fakeIo()
    expect(await main(['run', join(out, 'fixture.yaml'), '--target', 'emulator'], replay.io), replay.out.stdout).toBe(0)
  })
})

describe('a recorder killed mid-session', () => {
  test('SIGKILL loses nothing that was answered: the scenario on disk is whole and replays green', async () => {
    const out = temp()
    const bin = new URL('../../bin/doppel.js', import.meta.url).pathname
    const child = spawn(process.execPath, [bin, 'record', '--upstream', upstream.main.url, '--port', '0', '--out', out, '--name', 'killed', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] })
    try {
      const [first] = (await once(child.stdout!, 'data')) as [Buffer]
      const base = /on (\S+)/.exec(first.toString())![1]!
      const role = { auth_type: 'ec2', bound_ami_id: 'ami-0abc1234' }
      expect((await fetch(`${base}/v1/auth/cloud/role/killed`, { method: 'POST', headers: admin, body: JSON.stringify(role) })).status).toBe(204)
      expect((await fetch(`${base}/v1/auth/cloud/role/killed`, { headers: admin })).status).toBe(200)
      expect((await fetch(`${base}/api/v2/ping`)).status).toBe(200)
    } finally {
      child.kill('SIGKILL')
      await once(child, 'exit')
    }
    expect(readdirSync(out)).toEqual(['killed.yaml'])
    const yaml = readFileSync(join(out, 'killed.yaml'), 'utf8')
    expect(yaml).toContain('3 exchanges')
    const replay = fakeIo()
    expect(await main(['run', join(out, 'killed.yaml'), '--target', 'emulator'], replay.io), replay.out.stdout).toBe(0)
  }, 30_000)
})
