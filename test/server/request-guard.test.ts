import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDoppel, type Doppel } from '../../src/features/doppel/index.ts'
import { createDoppelServer, listen, type RunningServer, type ServerOptions } from '../../src/faces/server/index.ts'

// The server's front door, through real HTTP with forged Host, Origin and Sec-Fetch-Site headers.

interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  json(): any
}

function send(port: number, method: string, path: string, headers: Record<string, string | string[]> = {}, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { Host: `127.0.0.1:${port}`, ...headers }, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text, json: () => JSON.parse(text) }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

async function start(options: ServerOptions = {}, reportedAddress?: string): Promise<{ doppel: Doppel; running: RunningServer }> {
  const doppel = createDoppel({ seed: 3, clock: { frozen: true } })
  const server = createDoppelServer(doppel, options)
  const running = await listen(server, 0, '127.0.0.1')
  if (reportedAddress) {
    // Beyond-loopback behaviour without listening beyond loopback: the guard reads the bound address here.
    const real = server.address() as AddressInfo
    server.address = () => ({ ...real, address: reportedAddress })
  }
  return { doppel, running }
}

const ROOT = { 'X-Service-Token': 'root' }
const JSON_BODY = { 'Content-Type': 'application/json' }
const ROLE = JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-1' })

describe('on a loopback bind', () => {
  let doppel: Doppel
  let running: RunningServer
  let port: number
  beforeAll(async () => {
    ;({ doppel, running } = await start({ allowedHosts: ['doppel.internal', '.dev.test'] }))
    port = running.port
  })
  afterAll(() => running.close())

  describe('Host', () => {
    it.each([
      'localhost',
      'localhost:8200',
      '127.0.0.1',
      '127.0.0.1:1',
      '[::1]:8200',
      'app.localhost:3000',
      'LOCALHOST',
      'doppel.internal',
      'doppel.internal:9000',
      'dev.test',
      'api.dev.test:8200',
      'sts.amazonaws.com',
      'ec2.us-east-1.amazonaws.com',
      '169.254.169.254',
    ])('admits %s', async (host) => {
      const reply = await send(port, 'GET', '/_doppel/health', { Host: host })
      expect(reply.text).not.toContain('--allowed-host')
      expect(reply.status).toBeLessThan(500)
    })

    it.each(['evil.example', 'evil.example:8200', '127.0.0.1.evil.example', 'localhost.evil.example', 'doppel.internal.evil.example', 'xdev.test', '10.0.0.1', 'localhost:80x'])(
      'refuses %s with 403 naming --allowed-host, in the control envelope',
      async (host) => {
        const reply = await send(port, 'GET', '/_doppel/health', { Host: host })
        expect(reply.status).toBe(403)
        expect(reply.json().errors[0]).toContain('--allowed-host')
      },
    )

    it('refuses a rebinding write before the service sees it, in the auth envelope', async () => {
      const reply = await send(port, 'POST', '/v1/auth/cloud/role/rebound', { Host: 'attacker.example', ...ROOT, ...JSON_BODY }, ROLE)
      expect(reply.status).toBe(403)
      expect(Object.keys(reply.json())).toEqual(['errors'])
      expect((await doppel.fetch('http://x/v1/auth/cloud/role/rebound', { headers: ROOT })).status).toBe(404)
    })

    it('answers the registry in JSON:API errors', async () => {
      const reply = await send(port, 'GET', '/api/v2/organizations/acme/registry-modules', { Host: 'attacker.example', Authorization: 'Bearer root' })
      expect(reply.status).toBe(403)
      expect(reply.headers['content-type']).toBe('application/vnd.api+json')
      expect(reply.json().errors[0]).toMatchObject({ status: '403', title: 'forbidden' })
      expect(reply.json().errors[0].detail).toContain('--allowed-host')
    })
  })

  describe('browser cross-site requests', () => {
    it.each([
      ['Origin of another site', { Origin: 'http://evil.example' }],
      ['Origin of another port', { Origin: 'http://localhost:3000' }],
      ['Origin null', { Origin: 'null' }],
      ['Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
    ])('refuses a service write with %s and changes nothing', async (_label, headers) => {
      const reply = await send(port, 'POST', '/v1/auth/cloud/role/csrf', { ...ROOT, ...JSON_BODY, ...headers }, ROLE)
      expect(reply.status).toBe(403)
      expect(reply.json().errors[0]).toContain('Cross-site')
      expect((await doppel.fetch('http://x/v1/auth/cloud/role/csrf', { headers: ROOT })).status).toBe(404)
    })

    it('refuses a registry write cross-site in JSON:API errors', async () => {
      const reply = await send(port, 'POST', '/api/v2/organizations/acme/registry-modules', { Origin: 'http://evil.example', Authorization: 'Bearer root', 'Content-Type': 'application/vnd.api+json' }, '{}')
      expect(reply.status).toBe(403)
      expect(reply.json().errors[0]).toMatchObject({ status: '403' })
    })

    it('lets a safe method on a service route through', async () => {
      for (const method of ['GET', 'HEAD', 'OPTIONS']) {
        const reply = await send(port, method, '/v1/auth/cloud/role/none', { ...ROOT, Origin: 'http://evil.example', 'Sec-Fetch-Site': 'cross-site' })
        expect(reply.status, method).not.toBe(403)
      }
    })

    it.each(['/_doppel/state', '/_doppel/journal', '/_doppel/health', '/_doppel/cloud/instances', '/v1/../_doppel/state', '/v1/%2e%2e/_doppel/state'])(
      'refuses a cross-site read of %s',
      async (path) => {
        expect((await send(port, 'GET', path, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403)
        expect((await send(port, 'GET', path, { Origin: 'http://evil.example' })).status).toBe(403)
      },
    )

    it('admits its own origin, loopback aliases included, and same-origin fetch metadata', async () => {
      for (const headers of [
        { Origin: `http://127.0.0.1:${port}` },
        { Origin: `http://localhost:${port}` },
        { Origin: `http://[::1]:${port}` },
        { 'Sec-Fetch-Site': 'same-origin', Origin: `http://localhost:${port}` },
        { 'Sec-Fetch-Site': 'none' },
      ] as Record<string, string>[]) {
        expect((await send(port, 'POST', '/v1/auth/cloud/role/same', { ...ROOT, ...JSON_BODY, ...headers }, ROLE)).status, JSON.stringify(headers)).toBe(204)
        expect((await send(port, 'GET', '/_doppel/state', headers)).status, JSON.stringify(headers)).toBe(200)
      }
    })
  })

  describe('control writes', () => {
    it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', ''])(
      'refuses a body of type "%s" with 415 and changes nothing',
      async (type) => {
        doppel.clock.set('2030-01-01T00:00:00Z')
        const headers: Record<string, string> = type ? { 'Content-Type': type } : {}
        const reply = await send(port, 'POST', '/_doppel/clock', headers, JSON.stringify({ advance: '1h' }))
        expect(reply.status).toBe(415)
        expect(reply.json().errors[0]).toContain('application/json')
        expect(doppel.clock.now().toISOString()).toBe('2030-01-01T00:00:00.000Z')
      },
    )

    it('accepts JSON, JSON with a charset, and YAML for fixtures; a bodiless POST needs no type', async () => {
      expect((await send(port, 'POST', '/_doppel/clock', { 'Content-Type': 'application/json; charset=utf-8' }, '{"advance":"1h"}')).status).toBe(200)
      expect((await send(port, 'POST', '/_doppel/fixtures', { 'Content-Type': 'application/yaml' }, 'version: 1\nregistry:\n  organizations: [yaml-org]\n')).status).toBe(201)
      expect((await send(port, 'POST', '/_doppel/fixtures', { 'Content-Type': 'text/plain' }, 'version: 1\n')).status).toBe(415)
      expect((await send(port, 'POST', '/_doppel/reset')).status).toBe(204)
    })

    it('marks control answers same-origin only and never sends wildcard CORS', async () => {
      const control = await send(port, 'GET', '/_doppel/health')
      expect(control.headers['cross-origin-resource-policy']).toBe('same-origin')
      const refused = await send(port, 'GET', '/_doppel/state', { 'Sec-Fetch-Site': 'cross-site' })
      expect(refused.status).toBe(403)
      expect(refused.headers['cross-origin-resource-policy']).toBe('same-origin')
      const service = await send(port, 'OPTIONS', '/v1/auth/cloud/roles', { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'POST' })
      expect(service.headers['access-control-allow-origin']).toBeUndefined()
      expect(control.headers['access-control-allow-origin']).toBeUndefined()
    })
  })

  it('does not ask for a control token on loopback', async () => {
    expect((await send(port, 'GET', '/_doppel/state')).status).toBe(200)
  })
})

describe('beyond loopback', () => {
  let running: RunningServer
  let port: number
  beforeAll(async () => {
    ;({ running } = await start({ controlTokens: ['ctl-token'] }, '0.0.0.0'))
    port = running.port
  })
  afterAll(() => running.close())

  it.each(['/_doppel/state', '/_doppel/journal', '/_doppel/faults', '/_doppel/cloud/instances/i-0/imds', '/_doppel/registry/tokens'])(
    'answers %s 401 without a token, and with a wrong one',
    async (path) => {
      for (const headers of [{}, { 'X-Service-Token': 'wrong' }, { Authorization: 'Bearer ctl-token-x' }] as Record<string, string>[]) {
        const reply = await send(port, 'GET', path, headers)
        expect(reply.status, JSON.stringify(headers)).toBe(401)
        expect(reply.json().errors[0]).toContain('--control-token')
      }
    },
  )

  it('answers 400 "malformed Host header" to a Host no URL can hold, token or not, in the envelope of the path (it was a 500)', async () => {
    for (const host of ['a b', '127.0.0.1:0x1', 'doppel.test:99999']) {
      for (const headers of [{}, ROOT]) {
        const reply = await send(port, 'GET', '/v1/auth/cloud/role/web', { Host: host, ...headers })
        expect(reply.status, host).toBe(400)
        expect(reply.json()).toEqual({ errors: ['malformed Host header'] })
      }
    }
  })

  it('opens the control API to the root token and to the control token', async () => {
    for (const headers of [{ 'X-Service-Token': 'root' }, { Authorization: 'Bearer root' }, { 'X-Service-Token': 'ctl-token' }, { Authorization: 'Bearer ctl-token' }] as Record<
      string,
      string
    >[]) {
      expect((await send(port, 'GET', '/_doppel/state', headers)).status, JSON.stringify(headers)).toBe(200)
    }
    const write = await send(port, 'POST', '/_doppel/reset', { 'X-Service-Token': 'ctl-token' })
    expect(write.status).toBe(204)
  })

  it('reads the token as the services read theirs: the first Authorization value that starts with "Bearer "', async () => {
    expect((await send(port, 'GET', '/_doppel/state', { Authorization: ['Basic eDp5', 'Bearer ctl-token'] })).status).toBe(200)
    expect((await send(port, 'GET', '/_doppel/state', { Authorization: ['Bearer wrong', 'Bearer ctl-token'] })).status).toBe(401)
    expect((await send(port, 'GET', '/_doppel/state', { Authorization: 'bearer ctl-token' })).status).toBe(401)
  })

  it('asks for the token before judging the body', async () => {
    const reply = await send(port, 'POST', '/_doppel/clock', { 'Content-Type': 'text/plain' }, '{"advance":"1h"}')
    expect(reply.status).toBe(401)
    expect(reply.headers['cross-origin-resource-policy']).toBe('same-origin')
  })

  it('keeps the health check open and leaves service routes to their own tokens', async () => {
    expect((await send(port, 'GET', '/_doppel/health')).status).toBe(200)
    expect((await send(port, 'GET', '/v1/auth/cloud/roles?list=true')).status).toBe(403)
    expect((await send(port, 'GET', '/v1/auth/cloud/roles?list=true', ROOT)).status).toBe(404)
  })

  it('serves the dashboard page without a token, but none of the data it shows', async () => {
    const page = await send(port, 'GET', '/_doppel/ui/')
    expect(page.status).toBe(200)
    expect(page.text).toContain('<html')
    expect((await send(port, 'GET', '/_doppel/ui/app.js')).status).toBe(200)
    for (const path of ['/_doppel/ui/../state', '/_doppel/ui/%2e%2e/journal', '/t/a/_doppel/state', '/t/a/_doppel/ui/../snapshot']) {
      expect((await send(port, 'GET', path)).status, path).toBe(401)
    }
    // Past the guard with the token (this server serves no tenants, so the router's 404).
    expect((await send(port, 'GET', '/t/a/_doppel/state', { Authorization: 'Bearer ctl-token' })).status).toBe(404)
  })

  it('leaves the fake cloud\'s AWS APIs to SigV4 (SDK form bodies, no control token)', async () => {
    const reply = await send(port, 'POST', '/_doppel/cloud/sts/', { 'Content-Type': 'application/x-www-form-urlencoded' }, 'Action=GetCallerIdentity&Version=2011-06-15')
    expect(reply.status).toBe(403)
    expect(reply.text).toContain('<Code>MissingAuthenticationToken</Code>')
  })

  it('keeps the metadata face behind the token: it checks no caller, unlike the SigV4 faces', async () => {
    expect((await send(port, 'GET', '/_doppel/cloud/imds/i-0/latest/meta-data/')).status).toBe(401)
    expect((await send(port, 'GET', '/_doppel/cloud/imds/i-0/latest/meta-data/', { Authorization: 'Bearer ctl-token' })).status).not.toBe(401)
  })

  it('does not restrict Host (the token is the guard there), but still refuses cross-site writes', async () => {
    expect((await send(port, 'GET', '/_doppel/health', { Host: 'doppel.lan:8200' })).status).toBe(200)
    expect((await send(port, 'POST', '/_doppel/reset', { Host: 'doppel.lan:8200', Origin: 'http://evil.example', ...ROOT })).status).toBe(403)
  })
})

describe('the metadata service beyond loopback (it checks no caller: the control token guards it on every listener and host)', () => {
  let doppel: Doppel
  let running: RunningServer
  let port: number
  beforeAll(async () => {
    ;({ doppel, running } = await start({ controlTokens: ['ctl-token'] }, '0.0.0.0'))
    port = running.port
    const created = await doppel.fetch('http://doppel.test/_doppel/cloud/instances', { method: 'POST', body: JSON.stringify({ iam_role_name: 'web-role' }) })
    expect(created.status).toBe(201)
  })
  afterAll(() => running.close())

  const CREDENTIALS = '/latest/meta-data/iam/security-credentials/'
  // The metadata addresses, as a client may spell them in Host (the URL parser folds the numeric forms).
  it.each(['169.254.169.254', '169.254.169.254:80', '[fd00:ec2::254]', '0xa9fea9fe', '2852039166', '169.254.43518'])('refuses Host %s on the main port without a token', async (host) => {
    const reply = await send(port, 'GET', CREDENTIALS, { Host: host })
    expect(reply.status).toBe(401)
    expect(reply.headers.server).toBeUndefined()
    const withToken = await send(port, 'GET', CREDENTIALS, { Host: host, Authorization: 'Bearer ctl-token' })
    expect(withToken.headers.server).toBe('EC2ws')
  })

  it('still leaves the SigV4 faces by host name to their signatures', async () => {
    const reply = await send(port, 'POST', '/', { Host: 'sts.amazonaws.com', 'Content-Type': 'application/x-www-form-urlencoded' }, 'Action=GetCallerIdentity&Version=2011-06-15')
    expect(reply.status).toBe(403)
    expect(reply.text).toContain('<Code>MissingAuthenticationToken</Code>')
  })

  describe('on the cloud listener', () => {
    const cloudServer = async (exposeImds: boolean) => {
      const server = createDoppelServer(doppel, { surface: 'cloud', controlTokens: ['ctl-token'], exposeImds })
      const cloud = await listen(server, 0, '127.0.0.1')
      const real = server.address() as AddressInfo
      server.address = () => ({ ...real, address: '0.0.0.0' })
      return cloud
    }

    it('refuses an unsigned request (the metadata service) without a token, and lets a signed one reach the query API', async () => {
      const cloud = await cloudServer(false)
      try {
        for (const path of [CREDENTIALS, '/latest/api/token', '/_doppel/health', '/']) {
          const reply = await send(cloud.port, path === '/latest/api/token' ? 'PUT' : 'GET', path)
          expect(reply.status, path).toBe(401)
        }
        const signed = await send(cloud.port, 'POST', '/', {
          'Content-Type': 'application/x-www-form-urlencoded',
          Authorization: 'AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE/20260101/us-east-1/sts/aws4_request, SignedHeaders=host, Signature=00',
        }, 'Action=GetCallerIdentity&Version=2011-06-15')
        // Past the guard: the query API refuses the signature itself.
        expect(signed.status).not.toBe(401)
        expect(signed.text).toContain('<ErrorResponse')
        expect((await send(cloud.port, 'GET', CREDENTIALS, { Authorization: 'Bearer ctl-token' })).headers.server).toBe('EC2ws')
      } finally {
        await cloud.close()
      }
    })

    it('answers the metadata service without a token when told to (exposeImds, serve --expose-imds)', async () => {
      const cloud = await cloudServer(true)
      try {
        const reply = await send(cloud.port, 'GET', CREDENTIALS)
        expect(reply.status).toBe(200)
        expect(reply.text.trim()).toBe('web-role')
        // The control API keeps its token.
        expect((await send(cloud.port, 'GET', '/_doppel/state', { Host: `127.0.0.1:${port}` })).headers.server).toBe('EC2ws')
        expect((await send(port, 'GET', '/_doppel/state')).status).toBe(401)
      } finally {
        await cloud.close()
      }
    })
  })

  it('guards a tenant\'s metadata service as the root\'s', async () => {
    const server = createDoppelServer(doppel, { controlTokens: ['ctl-token'], tenants: {} })
    const tenants = await listen(server, 0, '127.0.0.1')
    const real = server.address() as AddressInfo
    server.address = () => ({ ...real, address: '0.0.0.0' })
    try {
      expect((await send(tenants.port, 'GET', `/t/a${CREDENTIALS}`, { Host: '169.254.169.254' })).status).toBe(401)
      expect((await send(tenants.port, 'GET', '/t/a/_doppel/cloud/imds/i-0/latest/meta-data/')).status).toBe(401)
    } finally {
      await tenants.close()
    }
  })
})

