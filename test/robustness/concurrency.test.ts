import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDoppel, createDoppelServer, listen, type Doppel, type RunningServer } from '../../src/index.ts'
import type { Instance } from '../../src/services/fake-cloud/index.ts'

// Many concurrent logins, role writes, deny-list writes and tidies at one standalone server over real
// sockets (bounded: about 200 requests, 20 in flight): nothing lost or duplicated, nonces hold, and the
// journal accounts for every request.

const IN_FLIGHT = 20
const LOGINS = 40
const RACES = 10
const ROLES = 40
const TAGS = 20
const TIDIES = 10
const ROOT = { 'X-Service-Token': 'root', 'Content-Type': 'application/json' }

interface Reply {
  status: number
  body: any
}

let doppel: Doppel
let server: RunningServer

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = ROOT): Promise<Reply> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers,
    ...(body !== undefined && { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(10_000),
  })
  const text = await res.text()
  return { status: res.status, body: text === '' ? null : JSON.parse(text) }
}

/** Runs the tasks with at most `limit` in flight, keeping their results in order. */
async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length)
  let next = 0
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++
      results[index] = await tasks[index]!()
    }
  }
  await Promise.all(Array.from({ length: limit }, worker))
  return results
}

/** A shuffle from a fixed seed, so the interleaving differs between kinds but not between runs. */
function shuffled<T>(items: T[]): T[] {
  const out = [...items]
  let seed = 12345
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    const j = seed % (i + 1)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

const login = (instance: Instance, nonce: string) =>
  call('POST', '/v1/auth/cloud/login', { role: 'web-role', pkcs7: doppel.cloud.identityDocument(instance.instance_id, 'rsa2048'), nonce }, {
    'Content-Type': 'application/json',
  })

beforeAll(async () => {
  doppel = createDoppel({ seed: 21, clock: { start: '2026-03-01T12:00:00Z', frozen: true } })
  server = await listen(createDoppelServer(doppel), 0, '127.0.0.1')
})

afterAll(() => server.close())

describe('a burst of concurrent writes at one server', () => {
  it('loses nothing, duplicates nothing, keeps nonces and journals every request', async () => {
    const ami = 'ami-0123456789abcdef0'
    const instances = Array.from({ length: LOGINS + RACES }, () => doppel.cloud.createInstance({ ami_id: ami }))
    expect((await call('POST', '/v1/auth/cloud/role/web-role', { auth_type: 'ec2', bound_ami_id: ami })).status).toBe(204)
    expect((await call('POST', '/v1/auth/cloud/role/tagged', { auth_type: 'ec2', bound_ami_id: ami, role_tag: 'VaultRole' })).status).toBe(204)
    const journalBefore = (await call('GET', '/_doppel/journal')).body.total as number

    const loggers = instances.slice(0, LOGINS)
    const racers = instances.slice(LOGINS)
    const tasks: { kind: string; key?: string; run: () => Promise<Reply[]> }[] = [
      ...loggers.map((instance, i) => ({ kind: 'login', run: async () => [await login(instance, `nonce-${i}`)] })),
      // Two first logins with different nonces for the same instance, sent together.
      ...racers.map((instance) => ({ kind: 'race', key: instance.instance_id, run: () => Promise.all([login(instance, 'nonce-a'), login(instance, 'nonce-b')]) })),
      ...Array.from({ length: ROLES }, (_, i) => ({
        kind: 'role',
        run: async () => [await call('POST', `/v1/auth/cloud/role/r-${i}`, { auth_type: 'ec2', bound_ami_id: `ami-${i}`, policies: `p${i}` })],
      })),
      ...Array.from({ length: TAGS }, () => ({
        kind: 'deny',
        run: async () => {
          const tag = await call('POST', '/v1/auth/cloud/role/tagged/tag', { policies: 'p' })
          const deny = await call('POST', `/v1/auth/cloud/roletag-denylist/${encodeURIComponent(tag.body.data.tag_value)}`)
          return [tag, deny]
        },
      })),
      ...Array.from({ length: TIDIES }, (_, i) => ({
        kind: 'tidy',
        run: async () => [await call('POST', `/v1/auth/cloud/tidy/${i % 2 === 0 ? 'identity-accesslist' : 'roletag-denylist'}`)],
      })),
    ]
    const results = await pool(shuffled(tasks).map((task) => async () => ({ kind: task.kind, key: task.key, replies: await task.run() })), IN_FLIGHT)
    const sent = results.reduce((sum, result) => sum + result.replies.length, 0)
    expect(sent).toBe(LOGINS + 2 * RACES + ROLES + 2 * TAGS + TIDIES)

    const of = (kind: string) => results.filter((r) => r.kind === kind)
    const statuses = (kind: string) => of(kind).map((r) => r.replies.map((reply) => reply.status).join(','))
    expect(statuses('login')).toEqual(Array(LOGINS).fill('200'))
    expect(statuses('role')).toEqual(Array(ROLES).fill('204'))
    expect(statuses('deny')).toEqual(Array(TAGS).fill('200,204'))
    expect(statuses('tidy')).toEqual(Array(TIDIES).fill('202'))
    for (const { replies } of of('race')) {
      const statuses = replies.map((r) => r.status).sort()
      expect(statuses).toEqual([200, 400])
      expect(replies.find((r) => r.status === 400)!.body).toEqual({ errors: ['client nonce mismatch'] })
    }

    // Every instance that logged in is on the access list once, with the nonce of the login that won.
    const listed = await call('GET', '/v1/auth/cloud/identity-accesslist?list=true')
    expect([...listed.body.data.keys].sort()).toEqual(instances.map((i) => i.instance_id).sort())
    const entries = await pool(instances.map((instance) => () => call('GET', `/v1/auth/cloud/identity-accesslist/${instance.instance_id}`)), IN_FLIGHT)
    loggers.forEach((_, i) => expect(entries[i]!.body.data.client_nonce).toBe(`nonce-${i}`))
    racers.forEach((instance, i) => {
      const [a] = results.find((r) => r.key === instance.instance_id)!.replies
      expect(entries[LOGINS + i]!.body.data.client_nonce).toBe(a!.status === 200 ? 'nonce-a' : 'nonce-b')
    })

    const roles = await call('GET', '/v1/auth/cloud/roles?list=true')
    expect(roles.body.data.keys).toHaveLength(ROLES + 2)
    const denied = await call('GET', '/v1/auth/cloud/roletag-denylist?list=true')
    const tags = of('deny').map((r) => r.replies[0]!.body.data.tag_value as string)
    expect(new Set(tags).size).toBe(TAGS)
    expect([...denied.body.data.keys].sort()).toEqual([...tags].sort())

    const reads = 3 + instances.length
    const journal = await call('GET', '/_doppel/journal')
    // A login's provider calls are journaled too (`internal` entries): every client request is there once.
    const since = (journal.body.entries as { id: number; internal?: boolean }[]).filter((entry) => entry.id > journalBefore)
    expect(since).toHaveLength(journal.body.total - journalBefore)
    expect(since.filter((entry) => !entry.internal)).toHaveLength(1 + sent + reads)
    expect(since.some((entry) => entry.internal)).toBe(true)
  })
})
