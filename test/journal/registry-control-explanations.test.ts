import { describe, expect, it } from 'vitest'
import type { Doppel } from '../../src/features/doppel/index.ts'
import { BASE, createModule, createVersion, modulePath, newDoppel, upload, v1, v2, versionPath, type Reply } from '../registry/registry-client.ts'

// The registry's 404 and 422 classes and the control API's refusals: the journal names the rule and the
// value seen. The client's answer is unchanged (the registry's and control API's own tests pin it).

function last(doppel: Doppel) {
  const entry = doppel.journal.entries().at(-1)!
  expect(entry.explanation, `${entry.method} ${entry.url} → ${entry.status}`).toBeDefined()
  return { status: entry.status, ...entry.explanation! }
}

async function world() {
  const doppel = newDoppel()
  await createModule(doppel, 'acme', 'vpc', 'aws')
  const version = await createVersion(doppel, 'acme', 'vpc', 'aws', '1.0.0')
  const token = (await (await doppel.fetch(`${BASE}/_doppel/registry/tokens`, { method: 'POST', body: JSON.stringify({ organizations: ['other'] }) })).json()).token as string
  return { doppel, version, token }
}

describe('registry 404s', () => {
  const cases: { name: string; call: (w: Awaited<ReturnType<typeof world>>) => Promise<Reply>; rule: string; seen: string | RegExp }[] = [
    { name: 'no route', call: (w) => v2(w.doppel, 'GET', '/api/v2/nowhere'), rule: 'route', seen: 'GET /api/v2/nowhere' },
    { name: 'an organisation the token does not reach', call: (w) => v2(w.doppel, 'GET', modulePath('acme', 'vpc', 'aws'), { token: w.token }), rule: "the token's organizations", seen: 'acme' },
    { name: 'a module not in the registry', call: (w) => v2(w.doppel, 'GET', modulePath('acme', 'nope', 'aws')), rule: 'module', seen: /^acme\/nope\/aws/ },
    { name: 'a version not in the registry', call: (w) => v2(w.doppel, 'PATCH', versionPath('acme', 'vpc', 'aws', '9.9.9'), { body: {} }), rule: 'module version', seen: /9\.9\.9/ },
    { name: 'a namespace other than the organisation', call: (w) => v2(w.doppel, 'GET', '/api/v2/organizations/acme/registry-modules/private/other/vpc/aws'), rule: 'namespace of a private module', seen: 'other' },
    { name: 'v1: a module not in the registry', call: (w) => v1(w.doppel, 'acme/nope/aws/versions'), rule: 'module', seen: /^acme\/nope\/aws/ },
    { name: 'v1: a version not uploaded', call: (w) => v1(w.doppel, 'acme/vpc/aws/1.0.0'), rule: 'module version', seen: 'version 1.0.0, pending' },
    { name: 'v1: another organisation', call: (w) => v1(w.doppel, 'acme/vpc/aws/versions', w.token), rule: "the token's organizations", seen: 'acme' },
    { name: 'an unknown archivist object', call: (w) => w.doppel.fetch(`${BASE}/_archivist/v1/object/not-an-object`).then(() => ({}) as Reply), rule: 'download object', seen: /no version holds/ },
  ]
  it.each(cases)('$name', async ({ call, rule, seen }) => {
    const w = await world()
    await call(w)
    const explanation = last(w.doppel)
    expect(explanation.status).toBe(404)
    expect(explanation.rule).toBe(rule)
    expect(explanation.seen).toMatch(seen)
  })
})

describe('registry 422s', () => {
  const attributes = (attributes: Record<string, unknown>) => ({ data: { type: 'registry-modules', attributes } })
  const cases: { name: string; body: unknown; rule: string; seen: string }[] = [
    { name: 'not JSON:API', body: '[1]', rule: '/data: notJson', seen: 'an array of 1 item' },
    { name: 'a blank name', body: attributes({ provider: 'aws' }), rule: '/data/attributes/name: blank', seen: 'nothing' },
    { name: 'a name too long', body: attributes({ name: 'n'.repeat(65), provider: 'aws' }), rule: '/data/attributes/name: tooLong', seen: 'a string of 65 characters' },
    { name: 'an invalid provider', body: attributes({ name: 'x', provider: 'A B' }), rule: '/data/attributes/provider: invalid', seen: '"A B"' },
    { name: 'no-code not a boolean', body: attributes({ name: 'x', provider: 'aws', 'no-code': 'yes' }), rule: '/data/attributes/no-code: notBoolean', seen: '"yes"' },
    { name: 'a namespace given', body: attributes({ name: 'x', provider: 'aws', namespace: 'acme' }), rule: '/data/attributes/namespace: present', seen: '"acme"' },
  ]
  it.each(cases)('$name', async ({ body, rule, seen }) => {
    const { doppel } = await world()
    await v2(doppel, 'POST', '/api/v2/organizations/acme/registry-modules', { body })
    expect(last(doppel)).toMatchObject({ status: 422, rule, seen })
  })

  it('a taken version, a status out of the list, a revocation before deprecation, a bad archive', async () => {
    const { doppel, version } = await world()
    await createVersion(doppel, 'acme', 'vpc', 'aws', '1.0.0')
    expect(last(doppel)).toMatchObject({ status: 422, rule: '/data/attributes/version: taken', seen: '"1.0.0"' })
    await v2(doppel, 'PATCH', versionPath('acme', 'vpc', 'aws', '1.0.0'), { body: { data: { type: 'module-versions', attributes: { deprecation: { 'deprecated-status': 'Maybe' } } } } })
    expect(last(doppel)).toMatchObject({ status: 422, rule: '/data/attributes/deprecation/deprecated-status: inclusion', seen: '"Maybe"', expected: 'Deprecated or Undeprecated' })
    await v2(doppel, 'PATCH', versionPath('acme', 'vpc', 'aws', '1.0.0'), { body: { data: { type: 'module-versions', attributes: { revocation: { status: 'Revoked' } } } } })
    expect(last(doppel)).toMatchObject({ status: 422, rule: '/data/attributes/revocation/status: notDeprecated', seen: '"version 1.0.0, not deprecated"' })
    await upload(doppel, version.body.data.links.upload, new Uint8Array([1, 2, 3]))
    expect(last(doppel)).toMatchObject({ status: 422, rule: 'module archive' })
  })
})

describe('control API refusals', () => {
  const call = (doppel: Doppel, method: string, path: string, init: RequestInit = {}) => doppel.fetch(`${BASE}${path}`, { method, ...init })
  it('an unknown path, another method, no management token, a bad body, a domain refusal', async () => {
    const doppel = newDoppel()
    await call(doppel, 'GET', '/_doppel/nowhere')
    expect(last(doppel)).toMatchObject({ status: 404, rule: 'control route', seen: '/_doppel/nowhere' })
    await call(doppel, 'PATCH', '/_doppel/clock')
    expect(last(doppel)).toMatchObject({ status: 405, rule: 'control route method', seen: 'PATCH', expected: '[GET, POST]' })
    await call(doppel, 'GET', '/_doppel/snapshot', { headers: { 'X-Service-Token': 'guess' } })
    expect(last(doppel)).toMatchObject({ status: 403, rule: 'management token', seen: 'a token that is not a root or control token' })
    await call(doppel, 'POST', '/_doppel/clock', { body: '{', headers: { 'Content-Type': 'application/json' } })
    expect(last(doppel)).toMatchObject({ status: 400, rule: 'control request body', seen: expect.stringContaining('Failed to read the request') })
    await call(doppel, 'POST', '/_doppel/clock', { body: '{"advance":"soon"}', headers: { 'Content-Type': 'application/json' } })
    expect(last(doppel)).toMatchObject({ status: 400, seen: expect.stringContaining('soon') })
  })
})
