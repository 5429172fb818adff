import { beforeAll, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { createDoppelServer, listen } from '../../src/faces/server/index.ts'
import { BASE } from '../cloud-auth/login-setup.ts'
import { robustWorld, type RobustWorld } from '../robustness/robust-world.ts'

// /_doppel/state and /_doppel/journal without a management token hide every secret-bearing value; with
// one (or in process through doppel.store.snapshot()) they show everything.
let world: RobustWorld
/** Every secret the world holds, found independently of the redaction module's lists. */
let secrets: Record<string, string>

const get = (path: string, headers: Record<string, string> = {}) => world.doppel.fetch(`${BASE}${path}`, { headers })

beforeAll(async () => {
  world = await robustWorld()
  const { doppel, cloud } = world
  const assumed = cloud.createPrincipal({ type: 'role', name: 'deployer', account_id: '123456789012' })
  await world.api('POST', 'config/client', { access_key: 'AKIACONFIGCLIENT0001', secret_key: 'config-client-secret-value' })
  const registryToken = (await (await doppel.fetch(`${BASE}/_doppel/registry/tokens`, { method: 'POST', body: JSON.stringify({ organizations: ['acme'] }) })).json()).token as string
  const login = await world.login(world.iamLogin())
  const snapshot = doppel.store.snapshot() as Record<string, Record<string, any>>
  const [token] = Object.values(snapshot.tokens!)
  const roles = Object.entries(snapshot).find(([name]) => name.endsWith(':roles'))![1]
  const version = Object.values(snapshot['registry.versions']!)[0]
  secrets = {
    'user secret key': world.alice.secret_access_key,
    'role session secret key': assumed.secret_access_key,
    'role session token': assumed.session_token!,
    'config/client secret_key': 'config-client-secret-value',
    'role hmac_key': Object.values(roles)[0].hmac_key,
    'client token': login.body.auth.client_token,
    'token id': token.id,
    'token accessor': token.accessor,
    'registry token': registryToken,
    'archivist upload object': version.uploadObject,
    'archivist download object': version.downloadObject,
  }
  for (const [what, value] of Object.entries(secrets)) expect(value, what).toMatch(/.{8,}/)
})

describe('GET /_doppel/state', () => {
  it('without a token: no secret appears, every collection and record is still there', async () => {
    const response = await get('/_doppel/state')
    expect(response.status).toBe(200)
    const text = await response.text()
    for (const [what, value] of Object.entries(secrets)) expect(text.includes(value), what).toBe(false)
    expect(text).toContain('"<redacted>"')
    const shown = JSON.parse(text) as Record<string, Record<string, unknown>>
    const stored = world.doppel.store.snapshot()
    expect(Object.keys(shown).sort()).toEqual(Object.keys(stored).sort())
    for (const name of Object.keys(stored)) expect(Object.keys(shown[name]!).length, name).toBe(Object.keys(stored[name]!).length)
  })

  it('keeps what is not secret: ids, names, ARNs, expiry times', async () => {
    const shown = await (await get('/_doppel/state')).json()
    const key = shown['fake-cloud.access-keys'][world.alice.access_key_id]
    expect(key).toMatchObject({ access_key_id: world.alice.access_key_id, secret_access_key: '<redacted>', owner_arn: world.alice.arn })
    const [token] = Object.values(shown.tokens) as any[]
    expect(token).toMatchObject({ id: '<redacted>', accessor: '<redacted>', policies: ['default'], mount: 'cloud' })
    expect(Object.keys(shown.tokens)[0]).toBe('<redacted 1>')
  })

  it('with a management token (any header the profile reads) shows exactly the stored records', async () => {
    const stored = JSON.stringify(world.doppel.store.snapshot())
    for (const headers of [{ 'X-Service-Token': 'root' }, { Authorization: 'Bearer root' }] as Record<string, string>[]) {
      expect(JSON.stringify(await (await get('/_doppel/state', headers)).json())).toBe(stored)
    }
    expect(await (await get('/_doppel/state', { 'X-Service-Token': 'not-root' })).text()).not.toContain(secrets['user secret key'])
  })

  it('the vault profile also reads X-Vault-Token', async () => {
    const vault = createDoppel({ profile: 'vault', rootTokens: ['s3cret'] })
    const key = vault.cloud.createPrincipal({ type: 'user', name: 'bob' }).secret_access_key
    const read = (headers: Record<string, string>) => vault.fetch('http://doppel.test/_doppel/state', { headers }).then((r) => r.text())
    expect(await read({ 'X-Vault-Token': 's3cret' })).toContain(key)
    expect(await read({ 'X-Vault-Token': 'root' })).not.toContain(key)
  })

  it('over a real doppel serve socket, too', async () => {
    const running = await listen(createDoppelServer(world.doppel), 0, '127.0.0.1')
    try {
      const hidden = await (await fetch(`${running.url}/_doppel/state`)).text()
      const shown = await (await fetch(`${running.url}/_doppel/state`, { headers: { 'X-Service-Token': 'root' } })).text()
      for (const [what, value] of Object.entries(secrets)) {
        expect(hidden.includes(value), what).toBe(false)
        expect(shown.includes(value), what).toBe(true)
      }
    } finally {
      await running.close()
    }
  })

  it('leaves the in-process snapshot unchanged', () => {
    const text = JSON.stringify(world.doppel.store.snapshot())
    for (const [what, value] of Object.entries(secrets)) expect(text.includes(value), what).toBe(true)
  })
})

describe('GET /_doppel/journal', () => {
  it('hides SigV4 signatures and session tokens in query strings and archivist objects in paths, from every reader', async () => {
    const { doppel } = world
    doppel.journal.clear()
    const presigned = `https://sts.amazonaws.com/?Action=GetCallerIdentity&X-Amz-Credential=AKIAEXAMPLE%2F20260301&X-Amz-Signature=${'ab12'.repeat(16)}&X-Amz-Security-Token=session-token-value`
    await doppel.fetch(presigned)
    await doppel.fetch(`${BASE}/_archivist/${secrets['archivist download object']}`)
    const hidden = await (await get('/_doppel/journal')).text()
    for (const secret of ['ab12'.repeat(16), 'session-token-value', secrets['archivist download object']!]) expect(hidden).not.toContain(secret)
    expect(hidden).toContain('X-Amz-Credential=AKIAEXAMPLE')
    expect(hidden).toContain('Action=GetCallerIdentity')
    // The journal holds none of them at all: a management token shows the same.
    const shown = await (await get('/_doppel/journal', { 'X-Service-Token': 'root' })).text()
    for (const secret of ['ab12'.repeat(16), 'session-token-value', secrets['archivist download object']!]) expect(shown).not.toContain(secret)
  })
})

describe('a redacted body', () => {
  it('keeps every other field as sent, in order, a `__proto__` field too', async () => {
    const { doppel } = world
    doppel.journal.clear()
    const body = '{"a":1,"__proto__":{"kept":true},"token":"body-token-secret","z":[1,"two"]}'
    await doppel.fetch(`${BASE}/v1/auth/cloud/role/proto`, { method: 'POST', headers: { 'X-Service-Token': 'root', 'Content-Type': 'application/json' }, body })
    const [entry] = (await (await get('/_doppel/journal')).json()).entries
    expect(entry.request.body).toBe('{"a":1,"__proto__":{"kept":true},"token":"<redacted>","z":[1,"two"]}')
  })
})
