import { describe, expect, it } from 'vitest'
import { createDoppel, SnapshotError, type Doppel } from '../../src/index.ts'
import { BASE } from '../cloud-auth/login-setup.ts'
import { call, richWorld, type RichWorld } from './rich-world.ts'

/** The requests both emulators answer: every kind of record, read back through its own API. */
function readsOf(world: RichWorld): { method: string; path: string; headers?: Record<string, string>; body?: unknown; status?: number }[] {
  const auth = '/v1/auth/cloud'
  const instance = world.instance.instance_id
  return [
    ...['role/web', 'role/tagged', 'role/people', 'roles?list=true', 'config/client', 'config/identity'].map((p) => ({ method: 'GET', path: `${auth}/${p}` })),
    ...['config/tidy/identity-accesslist', 'config/tidy/roletag-denylist', 'config/certificate/extra', 'config/sts/111122223333'].map((p) => ({
      method: 'GET',
      path: `${auth}/${p}`,
    })),
    ...['identity-accesslist?list=true', `identity-accesslist/${instance}`, 'roletag-denylist?list=true', 'config/sts?list=true'].map((p) => ({
      method: 'GET',
      path: `${auth}/${p}`,
    })),
    { method: 'GET', path: '/v1/sys/auth' },
    { method: 'GET', path: '/v1/auth/team/aws/role/other' },
    { method: 'GET', path: '/v1/auth/token/roles/ops' },
    { method: 'GET', path: '/v1/auth/token/roles?list=true' },
    { method: 'GET', path: '/v1/auth/token/lookup-self', headers: { 'X-Service-Token': world.ec2Token } },
    { method: 'GET', path: '/v1/auth/token/lookup-self', headers: { 'X-Service-Token': world.iamToken } },
    { method: 'GET', path: '/api/registry/v1/modules/acme/vpc/aws/versions' },
    { method: 'GET', path: '/api/registry/v1/modules/acme/vpc/aws/1.0.0' },
    { method: 'GET', path: '/api/v2/organizations/acme/registry-modules/private/acme/vpc/aws/version?module_version=1.0.0' },
    { method: 'GET', path: '/api/v2/organizations/acme/registry-modules/private/acme/vpc/aws' },
    { method: 'GET', path: '/api/registry/v1/modules/acme/vpc/aws/1.1.0', headers: { Authorization: `Bearer ${world.registryToken}` } },
    // The armed fault answers on both, and counts down on both.
    { method: 'GET', path: '/api/v2/organizations/acme/registry-modules', status: 503 },
    { method: 'GET', path: '/_doppel/faults' },
    { method: 'GET', path: '/_doppel/clock' },
    { method: 'GET', path: `/_doppel/cloud/instances/${instance}` },
    { method: 'GET', path: `/_doppel/cloud/imds/${instance}/latest/meta-data/iam/security-credentials/web-role`, headers: { 'X-aws-ec2-metadata-token': world.imdsToken } },
    { method: 'GET', path: '/latest/dynamic/instance-identity/pkcs7', headers: { 'X-aws-ec2-metadata-token': world.imdsToken } },
    { method: 'POST', path: '/_doppel/cloud/identity-document', body: { instance_id: instance, format: 'rsa2048' } },
    // Writes that draw ids: the same ids on both.
    { method: 'POST', path: '/_doppel/cloud/instances', body: {} },
    { method: 'POST', path: '/_doppel/cloud/principals', body: { type: 'user' } },
    { method: 'POST', path: '/_doppel/fixtures', body: 'version: 1\ncloud:\n  principals:\n    - { type: role }\n' },
    { method: 'POST', path: '/api/v2/organizations/acme/registry-modules', headers: { 'Content-Type': 'application/vnd.api+json' }, body: { data: { type: 'registry-modules', attributes: { name: 'db', provider: 'aws', 'registry-name': 'private' } } } },
    { method: 'POST', path: `${auth}/role/tagged/tag`, body: { policies: 'q' } },
  ]
}

async function answer(doppel: Doppel, request: ReturnType<typeof readsOf>[number]): Promise<{ status: number; text: string }> {
  const host = request.path.startsWith('/latest/') ? 'http://169.254.169.254' : BASE
  const response = await doppel.fetch(`${host}${request.path}`, {
    method: request.method,
    headers: { 'X-Service-Token': 'root', Authorization: 'Bearer root', 'Content-Type': 'application/json', ...request.headers },
    ...(request.body !== undefined && { body: typeof request.body === 'string' ? request.body : JSON.stringify(request.body) }),
  })
  return { status: response.status, text: await response.text() }
}

/** Through JSON text, as a snapshot travels. */
const viaJson = (doppel: Doppel): unknown => JSON.parse(JSON.stringify(doppel.snapshot()))

const withoutTakenAt = ({ taken_at: _, ...rest }: Record<string, unknown>) => rest

describe('snapshot and restore', () => {
  it('a restored emulator holds every record and answers every request exactly as the original', async () => {
    const world = await richWorld()
    const clone = createDoppel({ seed: 12345 })
    clone.restore(viaJson(world.doppel))

    // Every collection of the rich world has records, so a collection a codec forgot shows up here.
    const original = world.doppel.store.snapshot()
    for (const [name, records] of Object.entries(original)) {
      if (!name.startsWith('cloud-auth:team/aws:') || name.endsWith(':roles')) expect(Object.keys(records).length, name).toBeGreaterThan(0)
    }
    const nonEmpty = (store: typeof original) => Object.fromEntries(Object.entries(store).filter(([, records]) => Object.keys(records).length > 0))
    expect(nonEmpty(clone.store.snapshot())).toEqual(nonEmpty(original))
    expect(withoutTakenAt(viaJson(clone) as Record<string, unknown>)).toEqual(withoutTakenAt(viaJson(world.doppel) as Record<string, unknown>))

    for (const request of readsOf(world)) {
      const [mine, theirs] = [await answer(world.doppel, request), await answer(clone, request)]
      expect(theirs, `${request.method} ${request.path}`).toEqual(mine)
      if (request.status) expect(mine.status).toBe(request.status)
      else expect(mine.status, `${request.method} ${request.path}`).toBeLessThan(300)
    }
    // Logins on both: the same signatures verify, the same tokens come out.
    const document = world.cloud.identityDocument(world.instance.instance_id, 'rsa2048')
    const login = { role: 'web', pkcs7: document, nonce: 'first' }
    const logins = [await world.login(login), await loginOn(clone, login)]
    expect(logins[1]).toEqual(logins[0])
    expect(logins[0]!.status).toBe(200)
    expect(clone.cloud.createInstance().instance_id).toBe(world.cloud.createInstance().instance_id)
    expect(withoutTakenAt(viaJson(clone) as Record<string, unknown>)).toEqual(withoutTakenAt(viaJson(world.doppel) as Record<string, unknown>))
  })

  it('every domain an emulator creates is carried by a snapshot or is a cache rebuilt from what is', async () => {
    const world = await richWorld()
    const derived = new Set(['cloud-auth:login-certificates', 'scenario:faker'])
    const carried = new Set(['cloud-auth:mounts', 'cloud-auth:cloud', 'cloud-auth:team/aws', 'tokens', 'fake-cloud', 'registry', 'scenario:faker-random'])
    for (const key of world.doppel.domainKeys()) expect(carried.has(key) || derived.has(key), `domain "${key}" has no snapshot codec`).toBe(true)
    const saved = viaJson(world.doppel) as { domains: Record<string, unknown> }
    expect(Object.keys(saved.domains).sort()).toEqual(['cloud-auth', 'fake-cloud', 'fixture-faker', 'registry', 'tokens'])
  })

  it('reset() after a restore returns to the instance’s own seeded start, not to the snapshot', async () => {
    const world = await richWorld()
    const clone = createDoppel({ seed: 3, clock: { start: '2030-01-01T00:00:00Z', frozen: true } })
    const fresh = createDoppel({ seed: 3, clock: { start: '2030-01-01T00:00:00Z', frozen: true } })
    clone.restore(viaJson(world.doppel))
    expect(clone.clock.now().toISOString()).not.toBe('2030-01-01T00:00:00.000Z')
    await clone.reset()
    expect(clone.clock.now().toISOString()).toBe('2030-01-01T00:00:00.000Z')
    expect(Object.values(clone.store.snapshot()).every((records) => Object.keys(records).length === 0)).toBe(true)
    expect((await call(clone, 'GET', '/_doppel/faults')).text).toBe((await call(fresh, 'GET', '/_doppel/faults')).text)
    expect(clone.cloud.createInstance().instance_id).toBe(fresh.cloud.createInstance().instance_id)
  })

  it('a running clock keeps its offset from wall time; a frozen one its instant', async () => {
    const running = createDoppel({ clock: { start: '2031-05-05T00:00:00Z' } })
    const restored = createDoppel({ clock: { frozen: true } })
    restored.restore(viaJson(running))
    expect(restored.clock.frozen).toBe(false)
    expect(Math.abs(restored.clock.nowMs() - running.clock.nowMs())).toBeLessThan(1000)
    await restored.reset()
    expect(restored.clock.frozen).toBe(true)
  })

  it('binary state round-trips: the IMDSv2 key, the random position and the fixture faker', async () => {
    const world = await richWorld()
    const saved = viaJson(world.doppel) as any
    expect(saved.domains['fake-cloud'].imds_secret).toMatch(/^[A-Za-z0-9+/]{43}=$/)
    expect(saved.random.position).toHaveLength(4)
    expect(saved.domains['fixture-faker'].position).toHaveLength(4)
  })
})

describe('refused snapshots change nothing', () => {
  const cases: [string, (good: any) => unknown, RegExp][] = [
    ['not an object', () => [1, 2], /the snapshot must be an object/],
    ['no version', ({ doppel_snapshot: _, ...rest }) => rest, /no "doppel_snapshot" version/],
    ['a foreign version', (good) => ({ ...good, doppel_snapshot: 2 }), /version 2 is not supported/],
    ['truncated: no domains', ({ domains: _, ...rest }) => rest, /domains must be an object/],
    ['truncated: no clock', ({ clock: _, ...rest }) => rest, /"clock" is missing/],
    ['an unknown domain', (good) => ({ ...good, domains: { ...good.domains, other: {} } }), /domains.other is not a known domain/],
    ['an unknown field', (good) => ({ ...good, extra: 1 }), /"extra" is not a known field/],
    ['a role with a wrong field type', (good) => edit(good, (s) => (s.domains['cloud-auth'].state.cloud.roles[0].token_ttl = '1h')), /roles\[0\].token_ttl must be an integer/],
    ['a record missing a field', (good) => edit(good, (s) => delete s.domains.tokens.tokens[0].policies), /tokens\[0\].policies must be an array/],
    ['a record with an extra field', (good) => edit(good, (s) => (s.domains.registry.modules[0].owner = 'x')), /modules\[0\].owner is not a known field/],
    ['two records with one key', (good) => edit(good, (s) => s.domains['fake-cloud'].instances.push(s.domains['fake-cloud'].instances[0])), /repeats the key/],
    ['bad base64 bytes', (good) => edit(good, (s) => (s.domains['fake-cloud'].imds_secret = '***')), /imds_secret must be base64/],
    ['a bad random position', (good) => ({ ...good, random: { position: [1, 2, 3] } }), /random.position must be four 32-bit words/],
    ['a bad fault', (good) => ({ ...good, faults: [{ id: 'f', path: '/x', hits: 0 }] }), /exactly one of "status", "latency_ms" or "drop"/],
    ['a clock out of range', (good) => ({ ...good, clock: { frozen: true, now_ms: 9e15 } }), /clock.now_ms must be a time from 1970 to 9999/],
    // Issue 29: values the shapes let through and the code later failed on with a 500.
    ['a clock frozen at 1900', (good) => ({ ...good, clock: { frozen: true, now_ms: Date.UTC(1900, 0, 1) } }), /clock.now_ms must be a time from 1970 to 9999/],
    ['a running clock before 1970', (good) => ({ ...good, clock: { frozen: false, offset_ms: -Date.now() - 1000 } }), /clock.offset_ms \(added to the wall clock\) must be a time/],
    ['a token created at 2^53-1', (good) => edit(good, (s) => (s.domains.tokens.tokens[0].creation_time = 2 ** 53 - 1)), /tokens.tokens\[0\].creation_time must be a time from 1970 to 9999/],
    ['a negative token TTL', (good) => edit(good, (s) => (s.domains.tokens.tokens[0].creation_ttl = -1)), /tokens\[0\].creation_ttl must be an integer from 0 to/],
    ['a key pair seed of the wrong length', (good) => edit(good, (s) => (s.domains['fake-cloud'].instances[0].key_pair_seed = 'AAAA')), /instances\[0\].key_pair_seed must be base64 of 32 bytes/],
    ['an access-list time before 1970', (good) => edit(good, (s) => (s.domains['cloud-auth'].state.cloud.access_list[0].expiration_time = -1)), /access_list\[0\].expiration_time must be a time/],
    ['a version of no module', (good) => edit(good, (s) => (s.domains.registry.versions[0].moduleId = 'mod-none')), /versions\[0\].moduleId names no module/],
    ['a module of no organization', (good) => edit(good, (s) => (s.domains.registry.modules[0].organization = 'nobody')), /modules\[0\].organization names no organization/],
    ['an archive of no version', (good) => edit(good, (s) => (s.domains.registry.archives[0].versionId = 'modver-none')), /archives\[0\].versionId names no version/],
    ['an access key of no principal', (good) => edit(good, (s) => (s.domains['fake-cloud'].keys[0].owner_arn = 'arn:aws:iam::123456789012:user/gone')), /keys\[0\].owner_arn names no principal/],
    ['two tokens with one accessor', (good) => edit(good, (s) => (s.domains.tokens.tokens[1].accessor = s.domains.tokens.tokens[0].accessor)), /tokens\[1\].accessor repeats/],
    // Issue 34: values the API refuses, and a cap that a restore went around.
    ['an auth role named ../x', (good) => edit(good, (s) => (s.domains['cloud-auth'].state.cloud.roles[0].name = '../x')), /roles\[0\].name must be a name of letters/],
    ['a certificate name with a NUL', (good) => edit(good, (s) => (s.domains['cloud-auth'].state.cloud.certificates[0].name = 'a\u0000b')), /certificates\[0\].name must be a name of letters/],
    ['a cloud role named ../x', (good) => edit(good, (s) => (roleOf(s).name = '../x')), /principals\[\d+\].name: 1 validation error detected: Value '..\/x' at 'roleName'/],
    ['a cloud role name with a NUL', (good) => edit(good, (s) => (roleOf(s).name = 'a\u0000b')), /principals\[\d+\].name: 1 validation error detected/],
    ['an instance role name with a NUL', (good) => edit(good, (s) => (s.domains['fake-cloud'].instances[0].iam_role_name = 'web\u0000')), /instances\[0\].iam_role_name: 1 validation error detected/],
    ['a 5-byte IMDS secret', (good) => edit(good, (s) => (s.domains['fake-cloud'].imds_secret = Buffer.alloc(5).toString('base64'))), /imds_secret must be base64 of 32 bytes/],
    ['an unparsable creation date', (good) => edit(good, (s) => (roleOf(s).create_date = 'yesterday')), /principals\[\d+\].create_date must be a UTC time/],
    ['a launch time of 2024-02-30', (good) => edit(good, (s) => (s.domains['fake-cloud'].instances[0].pending_time = '2024-02-30T00:00:00Z')), /instances\[0\].pending_time must be a UTC time/],
    ['an access-list launch time that does not parse', (good) => edit(good, (s) => (s.domains['cloud-auth'].state.cloud.access_list[0].pending_time = 'soon')), /access_list\[0\].pending_time must be an RFC 3339 time/],
    ['more faults than the limit', (good) => ({ ...good, faults: Array.from({ length: 1001 }, (_, i) => ({ id: `f${i}`, path: '/x', status: 503, hits: 0 })) }), /faults: Failed to restore 1001 faults: the limit .* leaves room for 1000/],
  ]

  for (const [name, make, message] of cases) {
    it(`${name}: refused in process and over HTTP with 400, state unchanged`, async () => {
      const world = await richWorld()
      const good = viaJson(world.doppel)
      const target = createDoppel({ seed: 5 })
      target.cloud.createPrincipal({ type: 'user', name: 'kept' })
      const before = JSON.stringify(target.snapshot().domains)
      expect(() => target.restore(make(good))).toThrow(SnapshotError)
      expect(() => target.restore(make(good))).toThrow(message)
      const response = await target.fetch(`${BASE}/_doppel/snapshot`, {
        method: 'PUT',
        headers: { 'X-Service-Token': 'root' },
        body: JSON.stringify(make(good)),
      })
      expect(response.status).toBe(400)
      expect((await response.json()).errors[0]).toMatch(message)
      expect(JSON.stringify(target.snapshot().domains)).toBe(before)
    })
  }

  it('faults restored into a server\'s tenant count against the cap it shares with the root: refused past it, taken up to it', async () => {
    const root = createDoppel({ seed: 1, faultLimit: 10 })
    const tenant = createDoppel({ seed: 2, sharedLimits: root.sharedLimits })
    for (let i = 0; i < 5; i++) root.faults.add({ path: `/r${i}`, status: 503 })
    tenant.faults.add({ path: '/t', status: 503 })
    const withFaults = (count: number) => ({ ...tenant.snapshot(), faults: Array.from({ length: count }, (_, i) => ({ id: `f${i}`, path: '/x', status: 503, hits: 0 })) })
    // The tenant's own fault goes with the restore: 4 free places and its 1.
    const refused = await tenant.fetch(`${BASE}/_doppel/snapshot`, { method: 'PUT', headers: { 'X-Service-Token': 'root' }, body: JSON.stringify(withFaults(6)) })
    expect(refused.status).toBe(400)
    expect((await refused.json()).errors[0]).toMatch(/Failed to restore 6 faults: .* leaves room for 5/)
    expect(tenant.faults.list().map((f) => f.path)).toEqual(['/t'])
    tenant.restore(withFaults(5))
    expect(tenant.faults.list()).toHaveLength(5)
    expect(() => root.faults.add({ path: '/more', status: 503 })).toThrow(/10 faults are set/)
  })

  it('a truncated body is 400 and changes nothing', async () => {
    const world = await richWorld()
    const text = JSON.stringify(world.doppel.snapshot())
    const target = createDoppel({ seed: 5 })
    const before = JSON.stringify(target.snapshot().domains)
    const response = await target.fetch(`${BASE}/_doppel/snapshot`, { method: 'PUT', headers: { 'X-Service-Token': 'root' }, body: text.slice(0, text.length / 2) })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ errors: ['Failed to read the snapshot: the body is not complete JSON'] })
    expect(JSON.stringify(target.snapshot().domains)).toBe(before)
  })
})

describe('GET and PUT /_doppel/snapshot', () => {
  it('need a management token: 403 in the control API envelope without one', async () => {
    const doppel = createDoppel({ seed: 1, rootTokens: ['secret'] })
    for (const init of [{ method: 'GET' }, { method: 'PUT', body: JSON.stringify(doppel.snapshot()) }]) {
      for (const headers of [{}, { 'X-Service-Token': 'root' }, { 'X-Vault-Token': 'secret' }] as Record<string, string>[]) {
        const response = await doppel.fetch(`${BASE}/_doppel/snapshot`, { ...init, headers })
        expect(response.status).toBe(403)
        expect(await response.json()).toEqual({ errors: ['permission denied'] })
      }
    }
    expect((await doppel.fetch(`${BASE}/_doppel/snapshot`, { headers: { 'X-Service-Token': 'secret' } })).status).toBe(200)
    expect((await doppel.fetch(`${BASE}/_doppel/snapshot`, { headers: { Authorization: 'Bearer secret' } })).status).toBe(200)
    expect((await doppel.fetch(`${BASE}/_doppel/snapshot`, { method: 'POST', headers: { 'X-Service-Token': 'secret' } })).status).toBe(405)
  })

  it('the vault profile also takes X-Vault-Token', async () => {
    const doppel = createDoppel({ profile: 'vault' })
    expect((await doppel.fetch(`${BASE}/_doppel/snapshot`, { headers: { 'X-Vault-Token': 'root' } })).status).toBe(200)
  })

  it('moves state between two emulators with one GET and one PUT', async () => {
    const world = await richWorld()
    const target = createDoppel()
    const got = await world.doppel.fetch(`${BASE}/_doppel/snapshot`, { headers: { 'X-Service-Token': 'root' } })
    expect(got.status).toBe(200)
    const body = await got.text()
    expect(JSON.parse(body).doppel_snapshot).toBe(1)
    const put = await target.fetch(`${BASE}/_doppel/snapshot`, { method: 'PUT', headers: { 'X-Service-Token': 'root' }, body })
    expect(put.status).toBe(204)
    const lookup = await target.fetch(`${BASE}/v1/auth/token/lookup-self`, { headers: { 'X-Service-Token': world.iamToken } })
    expect(lookup.status).toBe(200)
  })
})

/** A role among the fake cloud's principals. */
const roleOf = (snapshot: any) => snapshot.domains['fake-cloud'].principals.find((p: { type: string }) => p.type === 'role')

function edit(good: unknown, change: (copy: any) => void): unknown {
  const copy = structuredClone(good)
  change(copy)
  return copy
}

async function loginOn(doppel: Doppel, body: unknown): Promise<{ status: number; body: any }> {
  const response = await doppel.fetch(`${BASE}/v1/auth/cloud/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
  const text = await response.text()
  return { status: response.status, body: text === '' ? null : JSON.parse(text) }
}
