import { beforeAll, describe, expect, it } from 'vitest'
import { aws4LoginData, BASE, identitySignature, loginWorld, type LoginWorld } from '../cloud-auth/login-setup.ts'
import type { Principal } from '../../src/services/fake-cloud/index.ts'

// An iam login signed with a session (the credentials an instance or an assumed role has) sent in each
// encoding the login accepts for iam_request_headers (docs/reference/cloud-auth.md §3.12): the journal,
// as the control API shows it to anyone, keeps neither the session token nor the whole signature, and
// sending the journaled request again does not log in.

let world: LoginWorld
let session: Principal

beforeAll(async () => {
  world = loginWorld()
  session = world.cloud.createPrincipal({ type: 'role', name: 'deployer', account_id: '123456789012' })
  const role = await world.api('POST', 'role/deployer', { auth_type: 'iam', bound_iam_principal_arn: session.arn })
  expect(role.status).toBe(204)
})

/** The signed request's headers, as an object of strings. */
function signedHeaders(): { data: Record<string, string>; headers: Record<string, string> } {
  const data = aws4LoginData(world, session)
  return { data, headers: JSON.parse(Buffer.from(data.iam_request_headers!, 'base64').toString('utf8')) as Record<string, string> }
}

/** A JSON string literal with every character of `text` written as a `\u` escape. */
const escaped = (text: string) => `"${[...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`

/** Each form: the login body as sent, and its content type. */
const FORMS: Record<string, () => { body: string; type: string }> = {
  'base64 JSON': () => ({ body: JSON.stringify({ role: 'deployer', ...signedHeaders().data }), type: 'application/json' }),
  object: () => {
    const { data, headers } = signedHeaders()
    return { body: JSON.stringify({ role: 'deployer', ...data, iam_request_headers: headers }), type: 'application/json' }
  },
  'object of arrays': () => {
    const { data, headers } = signedHeaders()
    const arrays = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]]))
    return { body: JSON.stringify({ role: 'deployer', ...data, iam_request_headers: arrays }), type: 'application/json' }
  },
  'array of "Key:Value"': () => {
    const { data, headers } = signedHeaders()
    const pairs = Object.entries(headers).map(([name, value]) => `${name}:${value}`)
    return { body: JSON.stringify({ role: 'deployer', ...data, iam_request_headers: pairs }), type: 'application/json' }
  },
  'raw JSON string': () => {
    const { data, headers } = signedHeaders()
    return { body: JSON.stringify({ role: 'deployer', ...data, iam_request_headers: JSON.stringify(headers) }), type: 'application/json' }
  },
  'escaped JSON keys': () => {
    const { data, headers } = signedHeaders()
    const members = Object.entries(headers).map(([name, value]) => `${escaped(name)}:${JSON.stringify(value)}`)
    const rest = Object.entries(data).filter(([name]) => name !== 'iam_request_headers').map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`)
    return { body: `{"role":"deployer",${rest.join(',')},${escaped('iam_request_headers')}:{${members.join(',')}}}`, type: 'application/json' }
  },
  'escaped key of the base64 field': () => {
    const { data } = signedHeaders()
    const rest = Object.entries(data).filter(([name]) => name !== 'iam_request_headers').map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`)
    return { body: `{"role":"deployer",${rest.join(',')},${escaped('iam_request_headers')}:${JSON.stringify(data.iam_request_headers)}}`, type: 'application/json' }
  },
  'form-encoded': () => ({ body: new URLSearchParams({ role: 'deployer', ...signedHeaders().data }).toString(), type: 'application/x-www-form-urlencoded' }),
  'form-encoded raw JSON': () => {
    const { data, headers } = signedHeaders()
    return { body: new URLSearchParams({ role: 'deployer', ...data, iam_request_headers: JSON.stringify(headers) }).toString(), type: 'application/x-www-form-urlencoded' }
  },
}

/** The text and every base64 run in it decoded, and JSON escapes undone: where a secret could still hide. */
function readings(text: string): string {
  const unescaped = text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\\(.)/g, '$1')
  const urlDecoded = decodeURIComponent(unescaped.replace(/%(?![0-9A-F]{2})/gi, '').replaceAll('+', ' '))
  const decoded = [...`${unescaped}\n${urlDecoded}`.matchAll(/[A-Za-z0-9+/]{16,}={0,2}/g)].map(([run]) => Buffer.from(run, 'base64').toString('latin1'))
  return [text, unescaped, urlDecoded, ...decoded].join('\n')
}

describe('an iam login in each encoding of iam_request_headers', () => {
  for (const [form, build] of Object.entries(FORMS)) {
    it(`${form}: the journal keeps neither the session token nor the signature, and its entry does not log in`, async () => {
      const { body, type } = build()
      const signature = /Signature=([0-9a-f]{64})/.exec(readings(body))![1]!
      world.doppel.journal.clear()
      const login = await world.doppel.fetch(`${BASE}/v1/auth/cloud/login`, { method: 'POST', headers: { 'Content-Type': type }, body })
      expect(login.status, await login.clone().text()).toBe(200)

      for (const headers of [{}, { 'X-Service-Token': 'root' }] as Record<string, string>[]) {
        const journal = await (await world.doppel.fetch(`${BASE}/_doppel/journal`, { headers })).text()
        const seen = readings(journal)
        expect(seen.includes(session.session_token!), 'session token').toBe(false)
        expect(seen.includes(signature), 'signature').toBe(false)
        expect(seen.includes(signature.slice(8)), 'signature after its first 8 characters').toBe(false)
      }

      // Inside the signature's 15 minutes, the journaled request sent again is refused.
      const entry = world.doppel.journal.entries().find((e) => e.url.endsWith('/login'))!
      const replay = await world.doppel.fetch(`${BASE}${entry.request.path}`, { method: entry.request.method, headers: entry.request.headers, body: entry.request.body })
      expect(replay.status).not.toBe(200)
      expect(await replay.text()).not.toContain('client_token')
    })
  }
})

describe('a refused iam login signed with a session', () => {
  it('explains the mismatch with its canonical request, whose session token doppel.explain and the journal both hide', async () => {
    world.doppel.journal.clear()
    const data = aws4LoginData(world, session, { secret: 'not-the-secret' })
    const response = await world.doppel.fetch(`${BASE}/v1/auth/cloud/login`, { method: 'POST', body: JSON.stringify({ role: 'deployer', ...data }) })
    expect(response.status).toBe(400)
    const explained = world.doppel.explain(response)!
    expect(explained.rule).toBe('sigv4 signature')
    expect(explained.details!['canonical request']).toContain('x-amz-security-token:<redacted>')
    const entry = world.doppel.journal.entries().at(-1)!
    for (const text of [JSON.stringify(explained), JSON.stringify(entry)]) expect(readings(text).includes(session.session_token!)).toBe(false)
  })
})

describe('a fixture posted in each form, read back from the journal', () => {
  const forms: Record<string, (secret: string) => { body: string; type: string }> = {
    'YAML flow': (s) => ({ body: `version: 1\nregistry:\n  organizations: [acme]\n  tokens:\n    - { token: ${s}, organizations: [acme] }\n`, type: 'application/yaml' }),
    'YAML list item': (s) => ({ body: `version: 1\nregistry:\n  organizations: [acme]\n  tokens:\n    - token: ${s}\n      organizations: [acme]\n`, type: 'application/yaml' }),
    'YAML block, config/client': (s) => ({ body: `version: 1\nauth:\n  config:\n    client:\n      access_key: AKIAEXAMPLE\n      secret_key: ${s}\n`, type: 'application/yaml' }),
    'JSON, escaped key': (s) => ({ body: `{"version":1,"auth":{"config":{"client":{"access_key":"AKIAEXAMPLE","secret\\u005fkey":${JSON.stringify(s)}}}}}`, type: 'application/json' }),
  }
  for (const [form, build] of Object.entries(forms)) {
    it(`${form}: loaded, and its secret is in no entry`, async () => {
      const secret = `fixture-secret-${form.replace(/\W/g, '')}-Q7xZ`
      world.doppel.journal.clear()
      const { body, type } = build(secret)
      const loaded = await world.doppel.fetch(`${BASE}/_doppel/fixtures`, { method: 'POST', headers: { 'Content-Type': type }, body })
      expect(loaded.status, await loaded.clone().text()).toBe(201)
      const journal = await (await world.doppel.fetch(`${BASE}/_doppel/journal`, { headers: { 'X-Service-Token': 'root' } })).text()
      expect(journal).toContain('/_doppel/fixtures')
      expect(readings(journal).includes(secret)).toBe(false)
    })
  }
})

describe('an ec2 login, journaled', () => {
  it('does not log in when sent again once the instance is off the access list (its nonce no longer asked for)', async () => {
    const w = loginWorld()
    const instance = w.cloud.createInstance({})
    expect((await w.api('POST', 'role/web', { auth_type: 'ec2', bound_ami_id: instance.ami_id })).status).toBe(204)
    const forget = async () => expect((await w.api('DELETE', `identity-accesslist/${instance.instance_id}`)).status).toBe(204)
    for (const body of [{ role: 'web', pkcs7: w.cloud.identityDocument(instance.instance_id, 'rsa2048').replace(/\n/g, '') }]) {
      w.doppel.journal.clear()
      const login = await w.doppel.fetch(`${BASE}/v1/auth/cloud/login`, { method: 'POST', body: JSON.stringify(body) })
      expect(login.status, await login.clone().text()).toBe(200)
      await forget()
      // The instance's signed document logs in again: that is what a journal entry must not be.
      const again = await w.doppel.fetch(`${BASE}/v1/auth/cloud/login`, { method: 'POST', body: JSON.stringify(body) })
      expect(again.status, await again.clone().text()).toBe(200)
      await forget()
      const entry = w.doppel.journal.entries().find((e) => e.url.endsWith('/login'))!
      const replay = await w.doppel.fetch(`${BASE}${entry.request.path}`, { method: 'POST', headers: entry.request.headers, body: entry.request.body })
      expect(replay.status).not.toBe(200)
    }
    // The identity and signature flow (refused by this profile: its signature is SHA-1) keeps no signature either.
    const { identity, signature } = identitySignature(w, instance.instance_id)
    await w.doppel.fetch(`${BASE}/v1/auth/cloud/login`, { method: 'POST', body: JSON.stringify({ role: 'web', identity, signature }) })
    const kept = JSON.parse(w.doppel.journal.entries().at(-1)!.request.body) as Record<string, string>
    expect(kept).toEqual({ role: 'web', identity, signature: '<redacted>' })
  })

  it('the metadata service answers that carry the identity document signed are kept as <redacted>', async () => {
    const w = loginWorld()
    const instance = w.cloud.createInstance({})
    w.doppel.journal.clear()
    for (const kind of ['pkcs7', 'signature', 'rsa2048']) {
      await w.doppel.fetch(`http://169.254.169.254/latest/dynamic/instance-identity/${kind}`, { headers: { 'X-Doppel-Instance-Id': instance.instance_id } })
    }
    const answers = w.doppel.journal.entries().map((e) => e.response?.body)
    expect(answers).toHaveLength(3)
    for (const body of answers) expect(body === '' || body === '<redacted>', body).toBe(true)
  })
})
