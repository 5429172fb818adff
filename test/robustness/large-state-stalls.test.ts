import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createDoppel, type Doppel } from '../../src/features/doppel/index.ts'
import { createDoppelServer, listen, type RunningServer } from '../../src/faces/server/index.ts'
import { openDataDir } from '../../src/features/snapshot/index.ts'
import { describeHeld, type Held, heldWhile } from '../support/thread-cpu.ts'

// Issue 34: with a 160 MiB state each periodic save held every request for up to 1.0 s, GET /_doppel/snapshot
// 1.9 s, PUT 5.5 s, and reading a full journal 0.2 to 0.6 s. Small requests sent meanwhile are timed here.
const STATE_BYTES = 160 * 1024 * 1024
const headers = { 'X-Service-Token': 'root', 'Content-Type': 'application/json' }

let doppel: Doppel
let running: RunningServer
const dir = mkdtempSync(join(tmpdir(), 'doppel-stalls-'))

/** A snapshot of about `bytes` of roles (each with 1,000 policies of 100 characters), made from one real role. */
async function largeSnapshot(bytes: number): Promise<unknown> {
  const seed = createDoppel({ seed: 1 })
  const policies = Array.from({ length: 1000 }, (_, i) => `policy-${i}-${'p'.repeat(90)}`)
  const made = await seed.fetch('http://doppel.test/v1/auth/cloud/role/role-0', { method: 'POST', headers, body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-1', token_policies: policies }) })
  expect(made.status).toBe(204)
  const snapshot = JSON.parse(JSON.stringify(seed.snapshot()))
  const state = snapshot.domains['cloud-auth'].state.cloud
  const [role] = state.roles
  const size = JSON.stringify(role).length
  state.roles = Array.from({ length: Math.ceil(bytes / size) }, (_, i) => ({ ...role, name: `role-${i}`, role_id: `${role.role_id.slice(0, -8)}${i.toString(16).padStart(8, '0')}` }))
  return snapshot
}

beforeAll(async () => {
  doppel = createDoppel({ seed: 1 })
  doppel.restore(await largeSnapshot(STATE_BYTES))
  running = await listen(createDoppelServer(doppel), 0, '127.0.0.1')
  // A full journal: 1,000 entries, each keeping 16 KiB of body each way.
  const body = JSON.stringify({ pad: 'j'.repeat(20_000) })
  for (let i = 0; i < 1000; i++) await doppel.fetch('http://doppel.test/_doppel/clock', { method: 'POST', headers, body })
}, 600_000)
afterAll(async () => {
  await running?.close()
  rmSync(dir, { recursive: true, force: true })
})

/**
 * A body's bytes, read as they come and put together only afterwards: the client runs in this process too,
 * and decoding or parsing a large answer at once would be its pause, not the server's.
 */
async function bodyOf(path: string, sent: Record<string, string> = headers): Promise<() => string> {
  const chunks: Uint8Array[] = []
  const reader = (await fetch(`${running.url}${path}`, { headers: sent })).body!.getReader()
  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value)
  return () => Buffer.concat(chunks).toString('utf8')
}

/** Small requests sent one after another while `work` runs. */
const whileRunning = (work: () => Promise<unknown>) =>
  heldWhile(work, async () => (await fetch(`${running.url}/v1/auth/cloud/role/role-7`, { headers })).arrayBuffer(), 5)

const report = (what: string, held: Held) => console.log(`${what} of a ${STATE_BYTES / 1048576} MiB state: ${describeHeld(held)}`)

/**
 * doppel's own work holds no small request past 100 ms of CPU time. A collection of the heap falls on a probe
 * now and then and counts in the second bound, which no slicing mistake would pass: before issue 34's fix one
 * request waited 0.2 to 5.5 s.
 */
function expectHeldBriefly(held: Held): void {
  expect(held.count).toBeGreaterThan(0)
  expect(held.own.p99, describeHeld(held)).toBeLessThan(100)
  expect(held.own.max, describeHeld(held)).toBeLessThan(100)
  expect(held.cpu.max, describeHeld(held)).toBeLessThan(250)
}

it('a --data-dir save, GET /_doppel/snapshot and /_doppel/state and a full journal read hold no other request past 100 ms', { timeout: 600_000 }, async () => {
  const data = await openDataDir(doppel, { dir: join(dir, 'state'), interval: '24h' })
  // A change, so that the save writes the whole state.
  await doppel.fetch('http://doppel.test/_doppel/clock', { method: 'POST', headers, body: JSON.stringify({ advance: '1s' }) })
  const save = await whileRunning(() => data.flush())
  report('a save', save)
  let text = () => ''
  const read = await whileRunning(async () => (text = await bodyOf('/_doppel/snapshot')))
  report('GET /_doppel/snapshot', read)
  expect(text().length).toBeGreaterThan(STATE_BYTES)
  const roles = (doppel.snapshot() as { domains: Record<string, { state: { cloud: { roles: unknown[] } } }> }).domains['cloud-auth']!.state.cloud.roles.length
  // With the management token every record as stored; without it, redacted as it is written.
  const states: Held[] = []
  for (const sent of [headers, {}]) {
    const state = await whileRunning(async () => (text = await bodyOf('/_doppel/state', sent)))
    report(`GET /_doppel/state (${sent === headers ? 'management token' : 'redacted'})`, state)
    // Checked as text: parsing 160 MiB here would leave this thread a heap whose collection the next test would time.
    const written = text()
    expect(written.length).toBeGreaterThan(STATE_BYTES)
    for (const name of ['role-0', `role-${roles - 1}`]) expect(written.includes(`"${name}":{"name":"${name}",`), name).toBe(true)
    states.push(state)
  }
  const journal = await whileRunning(async () => (text = await bodyOf('/_doppel/journal')))
  report('a full journal read', journal)
  expect((JSON.parse(text()) as { entries: unknown[] }).entries).toHaveLength(1000)
  await data.close()
  // On a machine whose cores are shared with other work, the wall clock also counts the waits for a core; the
  // CPU time this thread spent while a request was under way is what doppel's own work held it for.
  for (const measured of [save, read, ...states, journal]) expectHeldBriefly(measured)
})

it('PUT /_doppel/snapshot of the same state holds no other request past 100 ms, and restores it', { timeout: 600_000 }, async () => {
  const before = doppel.snapshot() as { domains: Record<string, unknown> }
  // Encoded beforehand and sent in pieces: the client runs in this process too, and encoding or sending the
  // text at once would be its pause, not the server's.
  const bytes = Buffer.from(JSON.stringify(before))
  let at = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close()
      controller.enqueue(bytes.subarray(at, (at += 1024 * 1024)))
    },
  })
  const put = await whileRunning(async () =>
    expect((await fetch(`${running.url}/_doppel/snapshot`, { method: 'PUT', headers, body, duplex: 'half' } as RequestInit)).status).toBe(204),
  )
  report('PUT /_doppel/snapshot', put)
  expectHeldBriefly(put)
  expect((doppel.snapshot() as { domains: Record<string, unknown> }).domains).toEqual(before.domains)
})
