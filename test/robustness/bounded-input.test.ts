import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDoppel, createDoppelServer, listen, type Doppel, type RunningServer } from '../../src/index.ts'

// Issue 14, items 4-6 through both faces: doppel.fetch in process and a real server on a loopback port.
// Every refusal is a 4xx naming what was wrong, answered at once, and changes nothing.

const START = '2026-03-01T12:00:00Z'
const ROOT = { 'X-Service-Token': 'root', 'Content-Type': 'application/json' }

interface Face {
  name: string
  doppel: Doppel
  call(method: string, path: string, body?: string, headers?: Record<string, string>): Promise<{ status: number; text: string; ms: number }>
}

const servers: RunningServer[] = []
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
})

function inProcess(doppel: Doppel): Face {
  return {
    name: 'doppel.fetch',
    doppel,
    call: async (method, path, body, headers = ROOT) => {
      const started = performance.now()
      const res = await doppel.fetch(`http://doppel.test${path}`, { method, headers, ...(body !== undefined && { body }) })
      const text = await res.text()
      return { status: res.status, text, ms: performance.now() - started }
    },
  }
}

/**
 * One request on its own connection (a refusal before the whole body is read may close a connection,
 * which must not spill into the next request).
 */
function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')))
    // The server may answer (413) and close before the body is all sent.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)))
    req.end(body)
  })
}

async function overHttp(doppel: Doppel): Promise<Face> {
  const server = await listen(createDoppelServer(doppel), 0, '127.0.0.1')
  servers.push(server)
  return {
    name: 'a real server',
    doppel,
    call: async (method, path, body, headers = ROOT) => {
      const started = performance.now()
      const { status, text } = await send(`${server.url}${path}`, method, headers, body)
      return { status, text, ms: performance.now() - started }
    },
  }
}

const faces: [string, () => Promise<Face>][] = [
  ['doppel.fetch', async () => inProcess(createDoppel({ seed: 14, clock: { start: START, frozen: true } }))],
  ['a real server', () => overHttp(createDoppel({ seed: 14, clock: { start: START, frozen: true } }))],
]

const snapshot = (doppel: Doppel) => JSON.stringify(doppel.store.snapshot())
const errors = (text: string): string[] => (JSON.parse(text) as { errors: string[] }).errors

describe.each(faces)('bounded input through %s', (_name, makeFace) => {
  let face: Face
  beforeAll(async () => {
    face = await makeFace()
    const role = await face.call('POST', '/v1/auth/cloud/role/web', JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-1' }))
    expect(role.status).toBe(204)
    // The registry makes its (empty) collections on first use: make them now, so snapshots compare records.
    expect((await face.call('GET', '/api/v2/ping', undefined, { Authorization: 'Bearer root' })).status).toBe(200)
    expect((await face.call('GET', '/_doppel/cloud/instances/i-0123456789abcdef0', undefined, {})).status).toBe(404)
  })

  it('a backtracking-prone fault pattern answers at once and matches like the plain one', async () => {
    const pattern = `/v1/auth/cloud/${'*a'.repeat(1000)}*b`
    const added = await face.call('POST', '/_doppel/faults', JSON.stringify({ path: pattern, status: 503 }))
    expect(added.status).toBe(201)
    const probe = await face.call('GET', `/v1/auth/cloud/role/${'a'.repeat(1900)}`)
    expect(probe.ms).toBeLessThan(1000)
    expect(probe.status).not.toBe(503)
    const hit = await face.call('GET', `/v1/auth/cloud/role/${'a'.repeat(1000)}b`)
    expect(hit.status).toBe(503)
    await face.call('DELETE', '/_doppel/faults')
    const tooLong = await face.call('POST', '/_doppel/faults', JSON.stringify({ path: `/${'x'.repeat(2048)}`, status: 503 }))
    expect(tooLong.status).toBe(400)
    expect(errors(tooLong.text)[0]).toContain('"path" must be at most 2048 characters')
  })

  it('refuses clock moves outside years 1970-9999, naming the field, and the clock stays', async () => {
    const before = face.doppel.clock.nowMs()
    for (const [body, field] of [
      ['{"advance":1e308}', '"advance"'],
      ['{"advance":"106751991167d"}', '"advance"'],
      ['{"advance":253402300800}', '"advance"'],
      ['{"set":"+275760-09-13T00:00:00Z"}', '"set"'],
      ['{"set":"10000-01-01T00:00:00Z"}', '"set"'],
      ['{"set":"1969-12-31T23:59:59Z"}', '"set"'],
    ] as const) {
      const res = await face.call('POST', '/_doppel/clock', body)
      expect(res.status, body).toBe(400)
      expect(errors(res.text)[0], body).toContain(field)
    }
    expect(face.doppel.clock.nowMs()).toBe(before)
    // Every endpoint still answers: nothing was stored from the refused moves.
    expect((await face.call('GET', '/v1/auth/cloud/role/web')).status).toBe(200)
    const far = await face.call('POST', '/_doppel/clock', '{"set":"9999-12-31T00:00:00Z"}')
    expect(far.status).toBe(200)
    expect((await face.call('GET', '/v1/auth/cloud/role/web')).status).toBe(200)
    await face.call('POST', '/_doppel/clock', JSON.stringify({ set: START }))
  })

  it('refuses bodies nested past the limit before parsing them, in milliseconds', async () => {
    const deepJson = '['.repeat(200_000) + ']'.repeat(200_000)
    const deepObject = '{"a":'.repeat(200_000) + '1' + '}'.repeat(200_000)
    const deepYaml = '- '.repeat(200_000) + 'x\n'
    const before = snapshot(face.doppel)
    const cases: [string, string, string, number[]][] = [
      ['POST', '/_doppel/fixtures', deepJson, [400]],
      ['POST', '/_doppel/fixtures', deepYaml, [400]],
      ['POST', '/_doppel/fixtures', `auth:\n  roles:\n    web:\n      x: ${'['.repeat(150_000)}\n`, [400]],
      ['POST', '/_doppel/faults', `{"path":"/x","status":503,"deep":${deepJson}}`, [400]],
      ['POST', '/_doppel/clock', `{"advance":"1h","deep":${deepObject}}`, [400]],
      ['POST', '/_doppel/registry/tokens', `{"organizations":${deepJson}}`, [400]],
      ['POST', '/_doppel/cloud/instances', `{"tags":${deepObject}}`, [400, 413]],
      ['POST', '/v1/auth/cloud/role/deep', `{"auth_type":"ec2","bound_ami_id":"ami-1","x":${deepJson}}`, [400]],
      ['POST', '/v1/auth/cloud/login', `{"role":"web","pkcs7":${deepObject}}`, [400]],
    ]
    for (const [method, path, body, statuses] of cases) {
      const res = await face.call(method, path, body)
      expect(statuses, `${path} ${body.slice(0, 40)}: ${res.status} ${res.text.slice(0, 200)}`).toContain(res.status)
      expect(res.ms, path).toBeLessThan(1000)
      expect(res.text.length, path).toBeLessThan(1000)
      expect(snapshot(face.doppel), path).toBe(before)
    }
    const yamlRefusal = await face.call('POST', '/_doppel/fixtures', deepYaml)
    expect(errors(yamlRefusal.text)[0]).toMatch(/^fixtures:1: nested deeper than 100 levels$/)
    const registry = await face.call('POST', '/api/v2/organizations/acme/registry-modules', `{"data":${deepJson}}`, {
      Authorization: 'Bearer root',
      'Content-Type': 'application/vnd.api+json',
    })
    expect(registry.status).toBe(422)
    expect(snapshot(face.doppel)).toBe(before)
  })

  it('takes JSON up to its nesting limit (1000 levels) without a 5xx, in any field', async () => {
    const deep = `${'['.repeat(998)}"x"${']'.repeat(998)}`
    const res = await face.call('POST', '/v1/auth/cloud/role/deep-but-fine', `{"auth_type":"ec2","bound_ami_id":"ami-1","x":${deep}}`)
    expect(res.status).toBe(204)
    for (const field of ['policies', 'ttl', 'auth_type', 'token_bound_cidrs', 'resolve_aws_unique_ids', 'token_num_uses']) {
      const answer = await face.call('POST', '/v1/auth/cloud/role/deep-but-fine', `{"${field}":${deep}}`)
      expect(answer.status, field).toBe(400)
    }
    const headers = Buffer.from(`{"X-Amz-Date":${deep}}`).toString('base64')
    const login = await face.call('POST', '/v1/auth/cloud/login', JSON.stringify({ role: 'web', iam_http_request_method: 'POST', iam_request_url: 'aHR0cHM6Ly9zdHMuYW1hem9uYXdzLmNvbS8=', iam_request_body: 'e30=', iam_request_headers: headers }), {})
    expect(login.status).toBe(400)
    const tooDeep = await face.call('POST', '/v1/auth/cloud/role/deep-but-fine', `{"x":${'['.repeat(1001)}${']'.repeat(1001)}}`)
    expect(tooDeep.status).toBe(400)
    expect(errors(tooDeep.text)).toEqual(['error parsing JSON'])
    await face.call('DELETE', '/v1/auth/cloud/role/deep-but-fine')
  })

  it('refuses durations a Go time.Duration cannot hold, and reads the largest one back exactly', async () => {
    const before = snapshot(face.doppel)
    for (const [field, value] of [
      ['token_max_ttl', '9223372037'],
      ['token_ttl', '106751991167d'],
      ['max_ttl', '9223372036854775807'],
      ['token_period', '1e400'],
      ['token_explicit_max_ttl', 9_223_372_037],
    ] as const) {
      const res = await face.call('POST', '/v1/auth/cloud/role/web', JSON.stringify({ [field]: value }))
      expect(res.status, `${field} ${value}`).toBe(400)
      expect(errors(res.text)[0], field).toContain(`for field "${field}"`)
    }
    const uses = await face.call('POST', '/v1/auth/cloud/role/web', '{"token_num_uses":9007199254740993}')
    expect(uses.status).toBe(400)
    expect(errors(uses.text)[0]).toContain('"token_num_uses"')
    expect(snapshot(face.doppel)).toBe(before)

    const max = await face.call('POST', '/v1/auth/cloud/role/web', '{"token_max_ttl":"9223372036","token_explicit_max_ttl":9223372036,"token_num_uses":9007199254740991}')
    expect(max.status, max.text).toBeLessThan(300)
    const read = JSON.parse((await face.call('GET', '/v1/auth/cloud/role/web')).text).data
    expect([read.token_max_ttl, read.token_explicit_max_ttl, read.token_num_uses]).toEqual([9_223_372_036, 9_223_372_036, 9_007_199_254_740_991])
    await face.call('POST', '/v1/auth/cloud/role/web', '{"token_max_ttl":0,"token_explicit_max_ttl":0,"token_num_uses":0}')
  })

  it('refuses CIDRs with an impossible prefix with the real service’s message', async () => {
    const before = snapshot(face.doppel)
    for (const cidr of ['10.0.0.0/33', '2001:db8::/129', '10.0.0.0/-1', '10.0.0.0/x', '::ffff:10.0.0.0/200']) {
      const res = await face.call('POST', '/v1/auth/cloud/role/web', JSON.stringify({ token_bound_cidrs: [cidr] }))
      expect(res.status, cidr).toBe(400)
      expect(errors(res.text), cidr).toEqual([
        `error parsing address ${JSON.stringify(cidr)}: Unable to convert ${JSON.stringify(cidr)} to an IPv4 or IPv6 address, or a UNIX Socket`,
      ])
    }
    expect(snapshot(face.doppel)).toBe(before)
    const ok = await face.call('POST', '/v1/auth/cloud/role/web', JSON.stringify({ token_bound_cidrs: ['10.0.0.0/32', '2001:db8::/32', '/run/vault.sock'] }))
    expect(ok.status, ok.text).toBeLessThan(300)
    await face.call('POST', '/v1/auth/cloud/role/web', JSON.stringify({ token_bound_cidrs: [] }))
  })

  it('refuses nested values without echoing them back', async () => {
    const before = snapshot(face.doppel)
    const huge = { nested: { deeper: ['x'.repeat(100_000)] } }
    for (const body of [{ organizations: [huge] }, { organizations: ['acme'], token: huge }, { organizations: 'y'.repeat(100_000) }]) {
      const res = await face.call('POST', '/_doppel/registry/tokens', JSON.stringify(body))
      expect(res.status).toBe(400)
      expect(res.text.length).toBeLessThan(300)
    }
    expect(snapshot(face.doppel)).toBe(before)
  })

  it('removes tokens past their expiry as the clock moves, without any access', async () => {
    const instance = face.doppel.cloud.createInstance({ ami_id: 'ami-0abc1234' })
    const pkcs7 = face.doppel.cloud.identityDocument(instance.instance_id, 'rsa2048')
    const role = await face.call('POST', '/v1/auth/cloud/role/short', JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-0abc1234', token_ttl: '60s', token_max_ttl: '60s' }))
    expect(role.status, role.text).toBeLessThan(300)
    const tokens = () => Object.keys(face.doppel.store.snapshot().tokens ?? {}).length
    const issued: string[] = []
    for (let i = 0; i < 3; i++) {
      const login = await face.call('POST', '/v1/auth/cloud/login', JSON.stringify({ role: 'short', pkcs7, nonce: 'n' }), {})
      expect(login.status).toBe(200)
      issued.push(JSON.parse(login.text).auth.client_token)
    }
    expect(tokens()).toBe(3)
    expect((await face.call('POST', '/_doppel/clock', '{"advance":"59s"}')).status).toBe(200)
    expect(tokens()).toBe(3)
    expect((await face.call('POST', '/_doppel/clock', '{"advance":"2s"}')).status).toBe(200)
    expect(tokens()).toBe(0)
    const lookup = await face.call('GET', '/v1/auth/token/lookup-self', undefined, { 'X-Service-Token': issued[0]! })
    expect(lookup.status).toBe(403)
  })
})

describe('per-instance IMDS listeners', () => {
  it('are capped, closed on request, on termination and on reset', async () => {
    const face = await overHttp(createDoppel({ seed: 3, imdsListenerLimit: 2 }))
    const ids = [1, 2, 3].map(() => face.doppel.cloud.createInstance({}).instance_id)
    const open = async (id: string) => face.call('POST', `/_doppel/cloud/instances/${id}/imds`, '', {})
    const endpoints: string[] = []
    for (const id of ids.slice(0, 2)) {
      const res = await open(id)
      expect(res.status).toBe(200)
      endpoints.push(JSON.parse(res.text).endpoint)
    }
    const third = await open(ids[2]!)
    expect(third.status).toBe(409)
    expect(errors(third.text)[0]).toContain('imdsListenerLimit')
    // The same instance asks again: its listener is reused, not a new one.
    expect((await open(ids[0]!)).status).toBe(200)

    const reachable = async (endpoint: string) =>
      fetch(`${endpoint}/latest/api/token`, { method: 'PUT', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '60' }, signal: AbortSignal.timeout(5_000) }).then(
        (res) => res.status,
        () => 'refused',
      )
    expect(await reachable(endpoints[1]!)).toBe(200)
    expect((await face.call('DELETE', `/_doppel/cloud/instances/${ids[1]}/imds`, undefined, {})).status).toBe(204)
    expect(await reachable(endpoints[1]!)).toBe('refused')
    expect((await face.call('DELETE', `/_doppel/cloud/instances/${ids[1]}/imds`, undefined, {})).status).toBe(404)
    expect((await open(ids[2]!)).status).toBe(200)

    const terminate = await face.call('POST', `/_doppel/cloud/instances/${ids[0]}/state`, '{"state":"terminated"}', { 'Content-Type': 'application/json' })
    expect(terminate.status).toBe(200)
    await expect.poll(() => reachable(endpoints[0]!)).toBe('refused')

    const third2 = JSON.parse((await open(ids[2]!)).text).endpoint as string
    expect(await reachable(third2)).toBe(200)
    expect((await face.call('POST', '/_doppel/reset', undefined, {})).status).toBe(204)
    await expect.poll(() => reachable(third2)).toBe('refused')
  })
})
