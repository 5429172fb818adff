import { readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts'
import { describe, expect, it } from 'vitest'
import { tarball } from '../registry/registry-client.ts'
import { dataDir, refused, send, start, stop, type Server } from './data-dir-process.ts'

const JSON_API = 'application/vnd.api+json'

describe('doppel serve --data-dir', () => {
  it('keeps roles, tokens, registry modules and deprecations, instances and principals across a restart', async () => {
    const dir = await dataDir()
    let server = await start(dir, ['--seed', '1'])
    const instance = (await send(server, 'POST', '/_doppel/cloud/instances', { ami_id: 'ami-0abc1234' })).body
    const alice = (await send(server, 'POST', '/_doppel/cloud/principals', { type: 'user', name: 'alice' })).body
    expect((await send(server, 'POST', '/v1/auth/cloud/role/web', { auth_type: 'ec2', bound_ami_id: 'ami-0abc1234', token_ttl: '2h' })).status).toBe(204)
    const pkcs7 = (await send(server, 'POST', '/_doppel/cloud/identity-document', { instance_id: instance.instance_id, format: 'rsa2048' })).body.value
    const login = await send(server, 'POST', '/v1/auth/cloud/login', { role: 'web', pkcs7, nonce: 'n-1' }, { 'X-Service-Token': '' })
    expect(login.status).toBe(200)
    const token = login.body.auth.client_token as string
    const org = '/api/v2/organizations/acme/registry-modules'
    const module = { data: { type: 'registry-modules', attributes: { name: 'vpc', provider: 'aws', 'registry-name': 'private' } } }
    expect((await send(server, 'POST', org, module, { 'Content-Type': JSON_API })).status).toBe(201)
    const version = { data: { type: 'registry-module-versions', attributes: { version: '1.0.0' } } }
    const created = await send(server, 'POST', `${org}/private/acme/vpc/aws/versions`, version, { 'Content-Type': JSON_API })
    expect(created.status).toBe(201)
    const upload = await fetch(created.body.data.links.upload, { method: 'PUT', body: new Uint8Array(tarball({ 'main.tf': 'variable "cidr" {}\n' })) })
    expect(upload.status).toBe(200)
    const deprecate = { data: { type: 'module-versions', attributes: { deprecation: { 'deprecated-status': 'Deprecated', reason: 'CVE-1', link: 'https://example.com' } } } }
    expect((await send(server, 'PATCH', `${org}/private/acme/vpc/aws/1.0.0`, deprecate, { 'Content-Type': JSON_API })).status).toBe(200)
    // Upload links carry the server's own address, which a restart changes.
    const versionRead = async (at: Server) => JSON.parse(JSON.stringify(await send(at, 'GET', `${org}/private/acme/vpc/aws/version?module_version=1.0.0`)).replaceAll(at.url, 'URL'))
    const before = {
      role: await send(server, 'GET', '/v1/auth/cloud/role/web'),
      version: await versionRead(server),
      instance: await send(server, 'GET', `/_doppel/cloud/instances/${instance.instance_id}`),
    }
    expect(await stop(server)).toBe(0)

    const file = join(dir, 'root.snapshot.json')
    expect((await stat(dir)).mode & 0o777).toBe(0o700)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect(JSON.parse(await readFile(file, 'utf8')).doppel_snapshot).toBe(1)

    server = await start(dir, ['--seed', '1'])
    expect(await send(server, 'GET', '/v1/auth/cloud/role/web')).toEqual({ ...before.role, body: { ...before.role.body, request_id: expect.any(String) } })
    const lookup = await send(server, 'GET', '/v1/auth/token/lookup-self', undefined, { 'X-Service-Token': token })
    expect(lookup.status).toBe(200)
    expect(lookup.body.data.id).toBe(token)
    const version1 = await versionRead(server)
    expect(version1).toEqual(before.version)
    const v1 = await send(server, 'GET', '/api/registry/v1/modules/acme/vpc/aws/1.0.0')
    expect(v1.body.deprecation).toEqual({ reason: 'CVE-1', link: 'https://example.com' })
    expect(await send(server, 'GET', `/_doppel/cloud/instances/${instance.instance_id}`)).toEqual(before.instance)
    const sts = new STSClient({
      region: 'us-east-1',
      endpoint: `${server.url}/_doppel/cloud/sts`,
      credentials: { accessKeyId: alice.access_key_id, secretAccessKey: alice.secret_access_key },
    })
    expect((await sts.send(new GetCallerIdentityCommand({}))).Arn).toBe(alice.arn)
    expect(await stop(server, 'SIGINT')).toBe(0)
  })

  it('keeps each tenant in its own file, and forgets a dropped tenant', async () => {
    const dir = await dataDir()
    let server = await start(dir)
    const role = (name: string) => ({ auth_type: 'ec2', bound_ami_id: `ami-${name}` })
    expect((await send(server, 'POST', '/t/job-1/v1/auth/cloud/role/one', role('1'))).status).toBe(204)
    expect((await send(server, 'POST', '/t/job-2/v1/auth/cloud/role/two', role('2'))).status).toBe(204)
    expect((await send(server, 'POST', '/t/job-2/_doppel/clock', { advance: '5h' })).status).toBe(200)
    const aheadBy = async () => Date.parse((await send(server, 'GET', '/t/job-2/_doppel/clock')).body.now) - Date.now()
    expect(Math.abs((await aheadBy()) - 5 * 3600_000)).toBeLessThan(60_000)
    expect(await stop(server)).toBe(0)
    expect((await stat(join(dir, 'tenants', 'job-1.snapshot.json'))).mode & 0o777).toBe(0o600)

    server = await start(dir)
    expect((await send(server, 'GET', '/t/job-1/v1/auth/cloud/role/one')).body.data.bound_ami_id).toEqual(['ami-1'])
    expect((await send(server, 'GET', '/t/job-1/v1/auth/cloud/role/two')).status).toBe(404)
    expect((await send(server, 'GET', '/t/job-2/v1/auth/cloud/role/two')).status).toBe(200)
    expect((await send(server, 'GET', '/v1/auth/cloud/role/one')).status).toBe(404)
    // The running clock keeps its offset from wall time.
    expect(Math.abs((await aheadBy()) - 5 * 3600_000)).toBeLessThan(60_000)
    expect((await send(server, 'DELETE', '/_doppel/tenants/job-1')).status).toBe(204)
    expect(await stop(server)).toBe(0)
    await expect(stat(join(dir, 'tenants', 'job-1.snapshot.json'))).rejects.toThrow(/ENOENT/)

    server = await start(dir)
    expect((await send(server, 'GET', '/t/job-1/v1/auth/cloud/role/one')).status).toBe(404)
    expect((await send(server, 'GET', '/t/job-2/v1/auth/cloud/role/two')).status).toBe(200)
    expect(await stop(server)).toBe(0)
  })

  it('after SIGKILL during a stream of writes, starts again and every record it holds reads back whole', async () => {
    const dir = await dataDir()
    let written = 0
    for (let round = 0; round < 2; round++) {
      const server = await start(dir, ['--snapshot-interval', '20ms'])
      let answered = 0
      const writing = (async () => {
        for (let i = written; ; i++) {
          const ami = `ami-${i.toString(16).padStart(8, '0')}`
          const reply = await send(server, 'POST', `/v1/auth/cloud/role/r${i}`, { auth_type: 'ec2', bound_ami_id: ami, token_policies: ['p', String(i)] }).catch(() => undefined)
          if (!reply) return i
          expect(reply.status).toBe(204)
          answered++
        }
      })()
      // Killed mid-stream, some intervals after the first writes.
      while (answered < 20) await new Promise((resolve) => setTimeout(resolve, 10))
      await new Promise((resolve) => setTimeout(resolve, 150))
      expect(await stop(server, 'SIGKILL')).toBeNull()
      written = await writing
    }
    const server = await start(dir)
    const keys = (await send(server, 'GET', '/v1/auth/cloud/roles?list=true')).body.data.keys as string[]
    expect(keys.length).toBeGreaterThan(0)
    for (const key of keys) {
      const i = Number(key.slice(1))
      const role = await send(server, 'GET', `/v1/auth/cloud/role/${key}`)
      expect(role.status).toBe(200)
      expect(role.body.data.bound_ami_id).toEqual([`ami-${i.toString(16).padStart(8, '0')}`])
      expect(role.body.data.token_policies).toEqual(['p', String(i)])
    }
    await stop(server)
  })

  const bad: [string, string][] = [
    ['truncated', '{"doppel_snapshot":1,"taken_at":"2026-01-01T00:00:00.000Z","clock":{"frozen":fal'],
    ['not JSON', 'hello'],
    ['a foreign version', '{"doppel_snapshot":7}'],
    ['a bad record', JSON.stringify({ doppel_snapshot: 1, clock: { frozen: true, now_ms: 0 }, random: { position: null }, faults: [], domains: { registry: { x: 1 } } })],
  ]
  for (const [name, text] of bad) {
    it(`a snapshot file that is ${name} stops the start with one line naming the file and exit code 1`, async () => {
      const dir = await dataDir()
      const first = await start(dir)
      await stop(first)
      const file = join(dir, 'root.snapshot.json')
      await writeFile(file, text)
      const { code, stdout, stderr } = await refused(['--data-dir', dir])
      expect(code).toBe(1)
      expect(stdout).toBe('')
      expect(stderr.trimEnd().split('\n')).toHaveLength(1)
      expect(stderr).toContain(`cannot read the snapshot ${file}: `)
      expect(await readFile(file, 'utf8')).toBe(text)
    })
  }

  it('--snapshot-interval needs --data-dir and a duration', async () => {
    for (const [args, message] of [
      [['--snapshot-interval', '1s'], '--snapshot-interval needs --data-dir'],
      [['--data-dir', await dataDir(), '--snapshot-interval', 'often'], '--snapshot-interval "often" is not a duration'],
    ] as const) {
      const { code, stderr } = await refused([...args])
      expect(code).toBeGreaterThan(0)
      expect(stderr).toContain(message)
    }
  })
})
