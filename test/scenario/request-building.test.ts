import { describe, expect, it } from 'vitest'
import type { TargetInfo } from '../../src/faces/scenario/index.ts'
import { buildRequest, observeResponse } from '../../src/faces/scenario/shared.ts'
const info: TargetInfo = {
  name: 't',
  kind: 'http',
  profile: 'vault',
  token: 'vault-root',
  registryToken: 'tfe-token',
  tokenHeader: 'X-Vault-Token',
  mount: 'cloud',
  baseUrl: 'http://vault.test:8200/',
  registryUrl: 'https://tfe.test',
  serverIdHeader: 'X-Vault-AWS-IAM-Server-ID',
  badInputStatus: 500,
}

describe('request steps', () => {
  it('json sets application/json, but an explicit Content-Type wins', async () => {
    const implied = buildRequest({ method: 'post', path: '/v1/auth/cloud/role/r', json: { a: 1 } }, info)
    expect(implied.method).toBe('POST')
    expect(implied.url).toBe('http://vault.test:8200/v1/auth/cloud/role/r')
    expect(implied.headers.get('content-type')).toBe('application/json')
    expect(await implied.text()).toBe('{"a":1}')
    const explicit = buildRequest({ method: 'PATCH', path: '/api/v2/x', headers: { 'content-type': 'application/vnd.api+json' }, json: {} }, info)
    expect(explicit.headers.get('content-type')).toBe('application/vnd.api+json')
  })

  it('form bodies, raw bodies and query values (lists repeat)', async () => {
    const form = buildRequest({ method: 'POST', path: '/v1/auth/cloud/login', form: { role: 'web', n: 1, list: ['a', 'b'] } }, info)
    expect(form.headers.get('content-type')).toBe('application/x-www-form-urlencoded')
    expect(await form.text()).toBe('role=web&n=1&list=a&list=b')
    const raw = buildRequest({ method: 'POST', path: '/v1/x', body: '{' }, info)
    expect(raw.headers.get('content-type')).toBe('text/plain;charset=UTF-8')
    const query = buildRequest({ path: '/v1/auth/cloud/roles', query: { list: true, tag: ['a', 'b'] } }, info)
    expect(query.url).toBe('http://vault.test:8200/v1/auth/cloud/roles?list=true&tag=a&tag=b')
  })

  it('auth requests carry the profile token header; registry ones a bearer token at the registry URL', () => {
    expect(buildRequest({ path: '/v1/auth/cloud/roles' }, info).headers.get('x-vault-token')).toBe('vault-root')
    const registry = buildRequest({ path: '/api/v2/ping' }, info)
    expect(registry.url).toBe('https://tfe.test/api/v2/ping')
    expect(registry.headers.get('authorization')).toBe('Bearer tfe-token')
    expect(registry.headers.get('x-vault-token')).toBeNull()
    const forced = buildRequest({ path: '/custom', service: 'registry' }, info)
    expect(forced.url).toBe('https://tfe.test/custom')
  })

  it('token: false sends none, a string replaces it, and a token header given wins', () => {
    expect(buildRequest({ path: '/v1/x', token: false }, info).headers.get('x-vault-token')).toBeNull()
    expect(buildRequest({ path: '/v1/x', token: 'other' }, info).headers.get('x-vault-token')).toBe('other')
    const given = buildRequest({ path: '/v1/x', headers: { 'X-Service-Token': 'mine' } }, info)
    expect([given.headers.get('x-service-token'), given.headers.get('x-vault-token')]).toEqual(['mine', null])
  })

  it('an absolute url is used as is; a GET with a body is refused', () => {
    expect(buildRequest({ url: 'https://sts.amazonaws.com/?Action=GetCallerIdentity' }, info).url).toBe('https://sts.amazonaws.com/?Action=GetCallerIdentity')
    expect(() => buildRequest({ path: '/v1/x', json: {} }, info)).toThrow('a GET request cannot carry a body (send query parameters instead)')
  })
})

describe('responses', () => {
  it('JSON when it parses, text otherwise, null when empty', async () => {
    expect((await observeResponse(new Response('{"a":1}', { headers: { 'Content-Type': 'application/json' } }))).body).toEqual({ a: 1 })
    expect((await observeResponse(new Response('[1]'))).body).toEqual([1])
    expect((await observeResponse(new Response('{not json'))).body).toBe('{not json')
    expect((await observeResponse(new Response('<xml/>', { headers: { 'Content-Type': 'text/xml' } }))).body).toBe('<xml/>')
    const empty = await observeResponse(new Response(null, { status: 204, headers: { 'X-A': 'b' } }))
    expect(empty).toEqual({ status: 204, headers: { 'x-a': 'b' }, body: null })
  })
})
