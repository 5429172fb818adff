import { describe, expect, it } from 'vitest'
import { createDoppel, type Doppel } from '../../src/index.ts'

// Where newcomers trip, the journal says why beside the answer; the client's answer stays the real
// service's (IMDS's small HTML page).

const IMDS = 'http://169.254.169.254'

function lastExplanation(doppel: Doppel) {
  const entry = doppel.journal.entries().at(-1)!
  return { status: entry.status, ...entry.explanation }
}

describe('the instance metadata service', () => {
  it('with no instance in use: says to create one and how IMDS picks it', async () => {
    const doppel = createDoppel({ seed: 1 })
    const response = await doppel.fetch(`${IMDS}/latest/meta-data/instance-id`)
    expect(response.status).toBe(404)
    expect(await response.text()).toContain('<title>404 - Not Found</title>')
    expect(lastExplanation(doppel)).toMatchObject({ status: 404, rule: 'imds instance', seen: 'no instance in use: the fake cloud has none', hint: expect.stringContaining('doppel.cloud.createInstance') })
  })

  it('IMDSv1 under http_tokens: required: names the setting and the IMDSv2 exchange', async () => {
    const doppel = createDoppel({ seed: 1 })
    const { instance_id } = doppel.cloud.createInstance({ http_tokens: 'required' })
    const response = await doppel.fetch(`${IMDS}/latest/meta-data/instance-id`)
    expect(response.status).toBe(401)
    expect(lastExplanation(doppel)).toMatchObject({ status: 401, rule: 'http_tokens', seen: expect.stringContaining(instance_id), expected: expect.stringContaining('PUT /latest/api/token') })
    const token = await (await doppel.fetch(`${IMDS}/latest/api/token`, { method: 'PUT', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '60' } })).text()
    const v2 = await doppel.fetch(`${IMDS}/latest/meta-data/instance-id`, { headers: { 'X-aws-ec2-metadata-token': token } })
    expect(await v2.text()).toBe(instance_id)
  })

  it('an unknown metadata path: the entries beside it and the likeliest typo', async () => {
    const doppel = createDoppel({ seed: 1 })
    doppel.cloud.createInstance({})
    expect((await doppel.fetch(`${IMDS}/latest/meta-data/instance-di`)).status).toBe(404)
    expect(lastExplanation(doppel)).toMatchObject({ rule: 'imds path', seen: '/latest/meta-data/instance-di', expected: expect.stringContaining('instance-id'), hint: 'did you mean instance-id?' })
  })
})

describe('a registry token in the wrong place', () => {
  const registry = 'http://registry.test'
  const reads = `${registry}/api/registry/v1/modules/acme/vpc/aws/versions`
  const writes = `${registry}/api/v2/organizations/acme/registry-modules`

  it.each<{ name: string; url: string; headers: Record<string, string>; seen: string }>([
    { name: 'the auth service header, v1 read', url: reads, headers: { 'X-Service-Token': 'root' }, seen: 'a token in the x-service-token header, which the registry does not read' },
    { name: 'the auth service header, v2', url: writes, headers: { 'X-Service-Token': 'root' }, seen: 'a token in the x-service-token header, which the registry does not read' },
    { name: "Vault's header", url: writes, headers: { 'X-Vault-Token': 'root' }, seen: 'a token in the x-vault-token header, which the registry does not read' },
    { name: 'Authorization without Bearer', url: reads, headers: { Authorization: 'Token root' }, seen: 'an Authorization header without the Bearer scheme ("Token …")' },
    { name: 'a bearer token never issued', url: reads, headers: { Authorization: 'Bearer nope' }, seen: 'a bearer token doppel never issued' },
    { name: 'no token at all', url: writes, headers: {}, seen: 'no Authorization header' },
  ])('$name: says which header the registry reads', async ({ url, headers, seen }) => {
    const doppel = createDoppel({ seed: 1 })
    const response = await doppel.fetch(url, { headers })
    expect(response.status).toBe(401)
    expect(lastExplanation(doppel)).toMatchObject({ rule: 'registry token', seen, expected: expect.stringMatching(/^the Authorization header as Bearer <token>/) })
  })
})

describe('an unknown path: the nearest routes', () => {
  it.each([
    { name: 'registry v2', url: 'http://doppel.test/api/v2/organizations/acme/registry-module', near: 'GET /api/v2/organizations/:org/registry-modules' },
    { name: 'registry v1', url: 'http://doppel.test/api/registry/v1/module/acme/vpc/aws/versions', near: 'GET /api/registry/v1/modules/:namespace/:name/:provider/versions' },
    { name: 'the auth method', url: 'http://doppel.test/v1/auth/cloud/rolez/web', near: 'role/:role' },
    { name: 'the control API', url: 'http://doppel.test/_doppel/journel', near: 'GET /_doppel/journal' },
  ])('$name', async ({ url, near }) => {
    const doppel = createDoppel({ seed: 1 })
    const response = await doppel.fetch(url, { headers: { 'X-Service-Token': 'root', Authorization: 'Bearer root' } })
    expect(response.status).toBe(404)
    const explanation = lastExplanation(doppel)
    expect(explanation.rule).toMatch(/route$/)
    expect(explanation.expected).toContain(near)
  })

  it('outside every mount of the auth method: where it answers', async () => {
    const doppel = createDoppel({ seed: 1 })
    expect((await doppel.fetch('http://doppel.test/v1/auth/clud/login', { method: 'POST', headers: { 'X-Service-Token': 'root' } })).status).toBe(404)
    expect(lastExplanation(doppel)).toMatchObject({ rule: 'route', seen: '/v1/auth/clud/login', hint: expect.stringContaining('mounts here: [cloud]') })
  })
})

describe('an undecodable PKCS#7 at ec2 login', () => {
  it.each([
    { name: 'not base64', pkcs7: 'not base64 at all!', seen: /^a value of 18 characters that is not base64$/ },
    { name: 'base64, not a SignedData', pkcs7: Buffer.from('hello, world').toString('base64'), seen: /decodes, but not as a PKCS#7 SignedData/ },
  ])('$name: says what the value should be and where to take it', async ({ pkcs7, seen }) => {
    const doppel = createDoppel({ seed: 1 })
    const login = await doppel.fetch('http://doppel.test/v1/auth/cloud/login', { method: 'POST', body: JSON.stringify({ role: 'web', pkcs7 }) })
    expect(login.status).toBeGreaterThanOrEqual(400)
    expect(lastExplanation(doppel)).toMatchObject({ rule: 'pkcs7', seen: expect.stringMatching(seen), expected: expect.stringContaining('/latest/dynamic/instance-identity/'), hint: expect.stringContaining('rsa2048') })
  })
})

describe('a path no doppel service owns', () => {
  it('says where each service answers', async () => {
    const doppel = createDoppel({ seed: 1 })
    const response = await doppel.fetch('http://doppel.test/v2/auth/cloud/login')
    expect(response.status).toBe(404)
    expect(await response.text()).toBe('404 page not found\n')
    expect(lastExplanation(doppel)).toMatchObject({ rule: 'route', seen: '/v2/auth/cloud/login', hint: expect.stringContaining('the auth service answers under /v1/') })
  })
})
