import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts'
import fc from 'fast-check'
import { request } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDoppel, type Doppel } from '../../src/features/doppel/index.ts'
import { createDoppelServer, listen, type RunningServer } from '../../src/faces/server/index.ts'
import { splitTenantPath, TenantNameError, TenantRegistry } from '../../src/features/tenants/index.ts'

// Tenants through a real server on port 0: every call is HTTP in, HTTP out.
const TOKEN = { 'X-Service-Token': 'root' }
const JSON_HEADERS = { 'Content-Type': 'application/json' }

let root: Doppel
let tenants: TenantRegistry
let server: RunningServer
let wallClock = 0

beforeAll(async () => {
  root = createDoppel({ seed: 3, clock: { start: '2026-01-01T00:00:00Z', frozen: true } })
  tenants = new TenantRegistry(root, { maxTenants: 3, idleTimeoutMs: 60_000, wallClock: () => wallClock })
  server = await listen(createDoppelServer(root, { tenants }), 0, '127.0.0.1')
})
afterAll(() => server.close())
beforeEach(async () => {
  for (const { id } of tenants.list()) tenants.drop(id)
  await root.reset()
})

async function call(method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) {
  const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body)
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(body !== undefined && JSON_HEADERS), ...init.headers },
    body,
    redirect: 'manual',
  })
  const text = await response.text()
  let json: any
  try {
    json = text === '' ? undefined : JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, json, text, headers: response.headers }
}

const roleNames = async (prefix: string) => {
  const res = await call('GET', `${prefix}/v1/auth/cloud/roles?list=true`, { headers: TOKEN })
  return res.status === 404 ? [] : (res.json.data.keys as string[])
}

describe('tenants: isolation per service', () => {
  it('cloud-auth: a role written in one tenant is seen there only', async () => {
    const write = await call('POST', '/t/job-1/v1/auth/cloud/role/web', { headers: TOKEN, body: { auth_type: 'ec2', bound_ami_id: 'ami-1' } })
    expect(write.status).toBe(204)
    expect(await roleNames('/t/job-1')).toEqual(['web'])
    expect(await roleNames('/t/job-2')).toEqual([])
    expect(await roleNames('')).toEqual([])
    expect((await call('GET', '/_doppel/state')).json['cloud-auth:cloud:roles'] ?? {}).toEqual({})
  })

  it('registry: fixtures, reads and links stay in the tenant; following them stays there', async () => {
    const fixture = { registry: { organizations: ['acme'], modules: [{ organization: 'acme', name: 'vpc', provider: 'aws', versions: ['1.0.0'] }] } }
    expect((await call('POST', '/t/reg/_doppel/fixtures', { body: fixture })).status).toBe(201)
    const bearer = { Authorization: 'Bearer root' }
    const read = await call('GET', '/t/reg/api/registry/v1/modules/acme/vpc/aws/1.0.0/download', { headers: bearer })
    expect(read.status).toBe(204)
    const download = read.headers.get('x-terraform-get')!
    expect(download.startsWith(`${server.url}/t/reg/_archivist/`)).toBe(true)
    expect((await fetch(download)).status).toBe(200)
    expect((await fetch(download.replace('/t/reg/', '/'))).status).toBe(404)
    expect((await call('GET', '/api/registry/v1/modules/acme/vpc/aws/1.0.0/download', { headers: bearer })).status).toBe(404)

    const list = await call('GET', '/t/reg/api/v2/organizations/acme/registry-modules', { headers: bearer })
    expect(list.status).toBe(200)
    expect(list.json.links.self.startsWith(`${server.url}/t/reg/api/v2/organizations/acme/registry-modules?`)).toBe(true)
    expect(list.json.data[0].links.self).toBe('/t/reg/api/v2/organizations/acme/registry-modules/private/acme/vpc/aws')
    const self = await call('GET', list.json.data[0].links.self, { headers: bearer })
    expect(self.status).toBe(200)
    expect(self.json.data.id).toBe(list.json.data[0].id)

    const discovery = await call('GET', '/t/reg/.well-known/terraform.json')
    expect(discovery.json['modules.v1']).toBe('/t/reg/api/registry/v1/modules/')
    expect((await call('GET', '/.well-known/terraform.json')).json['modules.v1']).toBe('/api/registry/v1/modules/')
  })

  it('registry: the upload link of a version created in a tenant uploads into that tenant', async () => {
    const vnd = { Authorization: 'Bearer root', 'Content-Type': 'application/vnd.api+json' }
    await call('POST', '/t/up/_doppel/fixtures', { body: { registry: { organizations: ['acme'] } } })
    const module = await call('POST', '/t/up/api/v2/organizations/acme/registry-modules', {
      headers: vnd,
      body: { data: { type: 'registry-modules', attributes: { name: 'net', provider: 'aws', 'registry-name': 'private' } } },
    })
    expect(module.status).toBe(201)
    const version = await call('POST', '/t/up/api/v2/organizations/acme/registry-modules/private/acme/net/aws/versions', {
      headers: vnd,
      body: { data: { type: 'registry-module-versions', attributes: { version: '0.1.0' } } },
    })
    expect(version.status).toBe(201)
    const upload: string = version.json.data.links.upload
    expect(upload.startsWith(`${server.url}/t/up/_archivist/`)).toBe(true)
    expect(version.json.data.relationships['tag-bindings'].links.related.startsWith('/t/up/api/v2/')).toBe(true)
    expect((await fetch(upload.replace('/t/up/', '/'), { method: 'PUT', body: 'x' })).status).toBe(404)
  })

  it('fake cloud: credentials made in a tenant sign in there (real STS client), and nowhere else', async () => {
    const user = await call('POST', '/t/aws/_doppel/cloud/principals', { body: { type: 'user', name: 'alice' } })
    expect(user.status).toBe(201)
    // The SDK signs with the wall clock; the emulator clocks are frozen in 2026-01 until set.
    for (const prefix of ['/t/aws', '', '/t/other']) await call('POST', `${prefix}/_doppel/clock`, { body: { set: new Date().toISOString() } })
    const credentials = { accessKeyId: user.json.access_key_id, secretAccessKey: user.json.secret_access_key }
    const sts = (prefix: string) => new STSClient({ region: 'us-east-1', endpoint: `${server.url}${prefix}/_doppel/cloud/sts`, credentials, maxAttempts: 1 })
    const identity = await sts('/t/aws').send(new GetCallerIdentityCommand({}))
    expect(identity.Arn).toBe(user.json.arn)
    await expect(sts('').send(new GetCallerIdentityCommand({}))).rejects.toMatchObject({ name: 'InvalidClientTokenId' })
    await expect(sts('/t/other').send(new GetCallerIdentityCommand({}))).rejects.toMatchObject({ name: 'InvalidClientTokenId' })
  })

  it('control API: clock, faults, journal and reset act on their own tenant', async () => {
    expect((await call('POST', '/t/a/_doppel/clock', { body: { advance: '73h' } })).json.now).toBe('2026-01-04T01:00:00.000Z')
    expect((await call('GET', '/t/b/_doppel/clock')).json.now).toBe('2026-01-01T00:00:00.000Z')
    expect((await call('GET', '/_doppel/clock')).json.now).toBe('2026-01-01T00:00:00.000Z')

    expect((await call('POST', '/t/a/_doppel/faults', { body: { path: '/v1/*', status: 503 } })).status).toBe(201)
    expect((await call('GET', '/t/a/v1/auth/cloud/roles?list=true', { headers: TOKEN })).status).toBe(503)
    expect((await call('GET', '/t/b/v1/auth/cloud/roles?list=true', { headers: TOKEN })).status).toBe(404)
    expect((await call('GET', '/v1/auth/cloud/roles?list=true', { headers: TOKEN })).status).toBe(404)
    expect((await call('GET', '/t/b/_doppel/faults')).json.faults).toEqual([])

    const journal = (await call('GET', '/t/b/_doppel/journal')).json.entries as { url: string }[]
    expect(journal.map((e) => new URL(e.url).pathname)).toEqual(['/_doppel/clock', '/v1/auth/cloud/roles', '/_doppel/faults'])

    await call('POST', '/t/b/v1/auth/cloud/role/keep', { headers: TOKEN, body: { auth_type: 'ec2', bound_ami_id: 'ami-2' } })
    expect((await call('POST', '/t/a/_doppel/reset')).status).toBe(204)
    expect((await call('GET', '/t/a/_doppel/clock')).json.now).toBe('2026-01-01T00:00:00.000Z')
    expect((await call('GET', '/t/a/_doppel/faults')).json.faults).toEqual([])
    expect(await roleNames('/t/b')).toEqual(['keep'])
  })

  it('every service: faults and resets in one tenant leave the others alone', async () => {
    const reads: [string, string, Record<string, string>][] = [
      ['cloud-auth', '/v1/auth/cloud/role/web', TOKEN],
      ['registry', '/api/v2/organizations/acme/registry-modules/private/acme/vpc/aws', { Authorization: 'Bearer root' }],
      ['fake cloud', '/_doppel/cloud/instances/i-0a1b2c3d4e5f60718', {}],
    ]
    for (const prefix of ['', '/t/a', '/t/b']) {
      await call('POST', `${prefix}/v1/auth/cloud/role/web`, { headers: TOKEN, body: { auth_type: 'ec2', bound_ami_id: 'ami-1' } })
      await call('POST', `${prefix}/_doppel/fixtures`, { body: { registry: { organizations: ['acme'], modules: [{ organization: 'acme', name: 'vpc', provider: 'aws', versions: ['1.0.0'] }] } } })
      await call('POST', `${prefix}/_doppel/cloud/instances`, { body: { instance_id: 'i-0a1b2c3d4e5f60718' } })
    }
    const statuses = async (prefix: string) => Promise.all(reads.map(async ([, path, headers]) => (await call('GET', `${prefix}${path}`, { headers })).status))
    // Faults never touch /_doppel/*, so the fake cloud's fault goes to its service face, routed by Host
    // (an unsigned EC2 call: an auth error when no fault fires).
    const ec2Status = (prefix: string) =>
      new Promise<number>((resolve, reject) => {
        request(`${server.url}${prefix}/?Action=DescribeInstances&Version=2016-11-15`, { headers: { Host: 'ec2.us-east-1.amazonaws.com' } }, (res) => {
          res.resume()
          resolve(res.statusCode!)
        })
          .on('error', reject)
          .end()
      })
    const serviceStatuses = async (prefix: string) => [...(await statuses(prefix)).slice(0, 2), await ec2Status(prefix)]
    const unsigned = await ec2Status('/t/a')
    expect(unsigned).toBeGreaterThanOrEqual(400)
    expect(unsigned).not.toBe(502)
    for (const [service, path] of [...reads.slice(0, 2), ['fake cloud', '/']] as const) {
      const fault = await call('POST', '/t/a/_doppel/faults', { body: { path, status: 502, times: 1 } })
      expect(fault.status, service).toBe(201)
    }
    expect(await serviceStatuses('/t/b')).toEqual([200, 200, unsigned])
    expect(await serviceStatuses('')).toEqual([200, 200, unsigned])
    expect(await serviceStatuses('/t/a')).toEqual([502, 502, 502])
    expect(await serviceStatuses('/t/a')).toEqual([200, 200, unsigned])

    expect((await call('POST', '/t/a/_doppel/reset')).status).toBe(204)
    expect(await statuses('/t/a')).toEqual([404, 404, 404])
    expect(await statuses('/t/b')).toEqual([200, 200, 200])
    expect(await statuses('')).toEqual([200, 200, 200])
  })

  it('a tenant is created like the root: same seed, clock start and fixtures, its own dashboard', async () => {
    const seeded = createDoppel({ seed: 5, fixtures: { registry: { organizations: ['seeded'] } } })
    await seeded.ready()
    const own = await listen(createDoppelServer(seeded, { tenants: {} }), 0, '127.0.0.1')
    try {
      const inRoot = await fetch(`${own.url}/_doppel/state`).then((r) => r.json())
      const inTenant = await fetch(`${own.url}/t/x/_doppel/state`).then((r) => r.json())
      expect(Object.keys(inTenant['registry.organizations'])).toEqual(['seeded'])
      expect(Object.keys(inTenant['registry.organizations'])).toEqual(Object.keys(inRoot['registry.organizations']))
      await fetch(`${own.url}/t/x/_doppel/reset`, { method: 'POST', headers: JSON_HEADERS })
      expect(Object.keys((await fetch(`${own.url}/t/x/_doppel/state`).then((r) => r.json()))['registry.organizations'])).toEqual(['seeded'])
      const page = await fetch(`${own.url}/t/x/_doppel/ui/`)
      expect(page.status).toBe(200)
      expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'self'/)
    } finally {
      await own.close()
    }
  })
})

describe('tenants: names, cap, idle timeout, listing', () => {
  it('refuses bad names with 400 in the control envelope and creates nothing', async () => {
    for (const path of ['/t/', '/t//v1/auth/cloud/roles', '/t/Job/x', '/t/a_b/x', '/t/a.b/x', `/t/${'a'.repeat(64)}/x`, '/t/%61/x']) {
      const res = await call('GET', path)
      expect(res.status, path).toBe(400)
      expect(res.json.errors[0], path).toMatch(/^invalid tenant name ".*": use 1 to 63 characters of a-z, 0-9 and -$/)
    }
    expect((await call('GET', '/_doppel/tenants')).json.tenants).toEqual([])
    expect((await call('DELETE', '/_doppel/tenants/Bad')).status).toBe(400)
    expect((await call('DELETE', '/_doppel/tenants/nobody')).status).toBe(404)
    expect((await call('POST', '/_doppel/tenants')).status).toBe(405)
  })

  it('lists tenants, drops one with its state, refuses a new one beyond the cap with 429', async () => {
    for (const name of ['a', 'b', 'c']) await call('GET', `/t/${name}/_doppel/health`)
    await call('POST', '/t/a/v1/auth/cloud/role/web', { headers: TOKEN, body: { auth_type: 'ec2', bound_ami_id: 'ami-1' } })
    const listing = (await call('GET', '/_doppel/tenants')).json
    expect(listing).toMatchObject({ max_tenants: 3, idle_timeout_seconds: 60 })
    expect(listing.tenants.map((t: { id: string; requests: number }) => [t.id, t.requests])).toEqual([['a', 2], ['b', 1], ['c', 1]])
    const refused = await call('GET', '/t/d/_doppel/health')
    expect(refused.status).toBe(429)
    expect(refused.json.errors[0]).toMatch(/^tenant limit reached: 3 tenants exist \(--max-tenants\)/)
    expect((await call('GET', '/t/a/_doppel/health')).status).toBe(200)
    expect((await call('DELETE', '/_doppel/tenants/a')).status).toBe(204)
    expect((await call('GET', '/t/d/_doppel/health')).status).toBe(200)
    expect((await call('DELETE', '/_doppel/tenants/d')).status).toBe(204)
    expect(await roleNames('/t/a')).toEqual([])
    expect((await call('GET', '/t/a/_doppel/tenants')).status).toBe(404)
  })

  it('drops tenants idle longer than the timeout on the wall clock, not the emulator clock', async () => {
    await call('GET', '/t/old/_doppel/health')
    wallClock += 30_000
    await call('POST', '/t/new/_doppel/clock', { body: { advance: '1000h' } })
    wallClock += 40_000
    expect((await call('GET', '/_doppel/tenants')).json.tenants.map((t: { id: string }) => t.id)).toEqual(['new'])
    wallClock += 60_000
    expect((await call('GET', '/_doppel/tenants')).json.tenants).toEqual([])
  })

  it('splits a path into tenant and inner path, or refuses the name; nothing else', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }).filter((name) => !name.includes('/')), fc.string({ maxLength: 20 }), (name, rest) => {
        const path = `/t/${name}/${rest}`
        if (/^[a-z0-9-]{1,63}$/.test(name)) expect(splitTenantPath(path)).toEqual({ tenant: name, path: `/${rest}` })
        else expect(() => splitTenantPath(path)).toThrow(TenantNameError)
      }),
    )
    expect(splitTenantPath('/v1/auth/cloud/login')).toBeUndefined()
    expect(splitTenantPath('/t/job-42')).toEqual({ tenant: 'job-42', path: '/' })
  })
})
