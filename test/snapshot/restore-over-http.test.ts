import { afterEach, beforeEach, expect, it } from 'vitest'
import { createDoppel, type Doppel } from '../../src/features/doppel/index.ts'
import { createDoppelServer, listen, type RunningServer } from '../../src/faces/server/index.ts'
import { SnapshotError } from '../../src/core/snapshot/index.ts'
import { rawExchange } from '../server/raw-http.ts'

// Issue 34: PUT /_doppel/snapshot parses a large body off the event loop and checks it in slices; these are
// what it must keep meanwhile: the old state answering, one restore at a time, and the answers it gave.
const headers = { 'X-Service-Token': 'root', 'Content-Type': 'application/json' }
const ROLE_URL = '/v1/auth/cloud/role'

let doppel: Doppel
let running: RunningServer
beforeEach(async () => {
  doppel = createDoppel({ seed: 1 })
  running = await listen(createDoppelServer(doppel), 0, '127.0.0.1')
})
afterEach(async () => {
  await running.close()
})

const send = (path: string, init: RequestInit = {}) => fetch(`${running.url}${path}`, { ...init, headers: { ...headers, ...init.headers } })

/** A snapshot of `roles` roles, each with 200 policies (about 24 KiB a role): well past what is parsed on the thread. */
async function snapshotOf(roles: number, name = (i: number) => `role-${i}`): Promise<Record<string, any>> {
  const seed = createDoppel({ seed: 2 })
  const policies = Array.from({ length: 200 }, (_, i) => `policy-${i}-${'p'.repeat(90)}`)
  const made = await seed.fetch(`http://doppel.test${ROLE_URL}/seed`, { method: 'POST', headers, body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-1', token_policies: policies }) })
  expect(made.status).toBe(204)
  const snapshot = JSON.parse(JSON.stringify(seed.snapshot()))
  const state = snapshot.domains['cloud-auth'].state.cloud
  const [role] = state.roles
  state.roles = Array.from({ length: roles }, (_, i) => ({ ...role, name: name(i), role_id: `${role.role_id.slice(0, -8)}${i.toString(16).padStart(8, '0')}` }))
  return snapshot
}

async function withOldRole(): Promise<void> {
  expect((await send(`${ROLE_URL}/old`, { method: 'POST', body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-old' }) })).status).toBe(204)
}

it('answers from the old state while a large restore runs, and replaces what was written meanwhile with the snapshot', { timeout: 120_000 }, async () => {
  await withOldRole()
  const snapshot = await snapshotOf(1500)
  let done = false
  const put = send('/_doppel/snapshot', { method: 'PUT', body: JSON.stringify(snapshot) }).then((response) => {
    done = true
    return response
  })
  // Written at once, while the body is still on its way or being checked (36 MiB take seconds).
  expect((await send(`${ROLE_URL}/meanwhile`, { method: 'POST', body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-new' }) })).status).toBe(204)
  expect(done).toBe(false)
  // Each read sees the old state whole until the new one is there whole: never a mixture, never back.
  const seen: string[] = []
  while (!done) {
    const read = await send(`${ROLE_URL}/old`)
    seen.push(read.status === 200 ? `old ${JSON.stringify((await read.json()).data.bound_ami_id)}` : `${read.status}`)
  }
  expect((await put).status).toBe(204)
  expect(seen[0]).toBe('old ["ami-old"]')
  expect(seen.filter((read) => read === 'old ["ami-old"]').length).toBeGreaterThan(1)
  const replaced = seen.indexOf('404')
  expect(seen.slice(0, replaced === -1 ? undefined : replaced).every((read) => read === 'old ["ami-old"]')).toBe(true)
  if (replaced !== -1) expect(seen.slice(replaced).every((read) => read === '404')).toBe(true)
  // The restore replaced the state whole: neither the old role nor the one written meanwhile is left.
  expect((await send(`${ROLE_URL}/old`)).status).toBe(404)
  expect((await send(`${ROLE_URL}/meanwhile`)).status).toBe(404)
  expect((await send(`${ROLE_URL}/role-1499`)).status).toBe(200)
  expect((doppel.snapshot() as any).domains['cloud-auth']).toEqual(snapshot.domains['cloud-auth'])
  // The records were measured as they were checked: the state counts the bytes doppel.restore() counts.
  const reference = createDoppel({ seed: 1 })
  reference.restore(snapshot)
  expect(doppel.store.bytes).toBe(reference.store.bytes)
})

it('refuses a second restore of the instance while one runs (409 in the control envelope), and the first completes', { timeout: 120_000 }, async () => {
  const body = JSON.stringify(await snapshotOf(1500))
  const answers = await Promise.all([1, 2].map(async () => {
    const response = await send('/_doppel/snapshot', { method: 'PUT', body })
    return { status: response.status, text: await response.text() }
  }))
  answers.sort((a, b) => a.status - b.status)
  expect(answers.map((answer) => answer.status)).toEqual([204, 409])
  expect(JSON.parse(answers[1]!.text)).toEqual({ errors: ['Failed to restore the snapshot: another restore of this instance is under way; try again when it is done'] })
  expect((await send(`${ROLE_URL}/role-1499`)).status).toBe(200)
  // Once it is done, the next one runs.
  expect((await send('/_doppel/snapshot', { method: 'PUT', body })).status).toBe(204)
})

it('refuses a second restore at once, before its body is read: while the first one is still uploading', { timeout: 120_000 }, async () => {
  const bytes = new TextEncoder().encode(JSON.stringify(await snapshotOf(200)))
  // Bodies sent in pieces the test controls: the first stops halfway until told, the second never ends.
  let finishFirst!: () => void
  let halfSent!: () => void
  const firstHalfSent = new Promise<void>((resolve) => (halfSent = resolve))
  const first = send('/_doppel/snapshot', {
    method: 'PUT',
    duplex: 'half',
    body: new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(bytes.subarray(0, bytes.length >> 1))
        halfSent()
        await new Promise<void>((resolve) => (finishFirst = resolve))
        controller.enqueue(bytes.subarray(bytes.length >> 1))
        controller.close()
      },
    }),
  } as RequestInit)
  await firstHalfSent
  // The first request's headers are in and its body is on its way: its claim is held.
  await new Promise((resolve) => setTimeout(resolve, 200))
  // The second on a raw connection: headers promising a 100 MB body (past what the server reads whole before
  // answering), then 64 KiB of it (more than the journal keeps of a body), then nothing more.
  const second = await rawExchange(
    running.port,
    [
      'PUT /_doppel/snapshot HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-Token: root\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n',
      `{"version":${' '.repeat(64 * 1024)}`,
    ],
    1,
    { timeoutMs: 10_000 },
  )
  expect(second).toMatch(/^HTTP\/1\.1 409 /)
  expect(JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4))).toEqual({
    errors: ['Failed to restore the snapshot: another restore of this instance is under way; try again when it is done'],
  })
  finishFirst()
  expect((await first).status).toBe(204)
  expect((await send(`${ROLE_URL}/role-199`)).status).toBe(200)
})

it('refuses a large bad snapshot with the words doppel.restore throws, and changes nothing', { timeout: 120_000 }, async () => {
  await withOldRole()
  const bad = await snapshotOf(1500, (i) => (i === 1499 ? '../x' : `role-${i}`))
  let thrown: unknown
  try {
    createDoppel({ seed: 1 }).restore(bad)
  } catch (error) {
    thrown = error
  }
  expect(thrown).toBeInstanceOf(SnapshotError)
  const response = await send('/_doppel/snapshot', { method: 'PUT', body: JSON.stringify(bad) })
  expect(response.status).toBe(400)
  expect(await response.json()).toEqual({ errors: [(thrown as Error).message] })
  expect((await send(`${ROLE_URL}/old`)).status).toBe(200)
  expect((await send(`${ROLE_URL}/role-0`)).status).toBe(404)
})

it('answers a large body that is not JSON, or nested too deep, as it answers a small one', { timeout: 120_000 }, async () => {
  await withOldRole()
  const large = JSON.stringify(await snapshotOf(100))
  const cases = [
    { small: '{"doppel_snapshot":', large: large.slice(0, -1) },
    { small: `${'['.repeat(101)}${']'.repeat(101)}`, large: `${'['.repeat(101)}${JSON.stringify(large)}${']'.repeat(101)}` },
  ]
  for (const { small, large: big } of cases) {
    expect(big.length).toBeGreaterThan(1024 * 1024)
    const answers = []
    for (const body of [small, big]) {
      const response = await send('/_doppel/snapshot', { method: 'PUT', body })
      answers.push({ status: response.status, text: await response.text() })
    }
    expect(answers[0]!.status).toBe(400)
    expect(answers[1]).toEqual(answers[0])
    // And the journal explains both alike.
    const [smallEntry, bigEntry] = doppel.journal.entries().slice(-2)
    expect(bigEntry!.explanation).toEqual(smallEntry!.explanation)
    expect(smallEntry!.explanation?.rule).toBe('control request body')
  }
  // Nothing was replaced, and a restore runs again afterwards.
  expect((await send(`${ROLE_URL}/old`)).status).toBe(200)
  expect((await send('/_doppel/snapshot', { method: 'PUT', body: large })).status).toBe(204)
  expect((await send(`${ROLE_URL}/old`)).status).toBe(404)
})

it('refuses a large body of millions of tiny values as doppel.restore does, without running its parse out of memory', { timeout: 120_000 }, async () => {
  await withOldRole()
  const body = `[${Array.from({ length: 4_000_000 }, () => '{}').join(',')}]`
  const response = await send('/_doppel/snapshot', { method: 'PUT', body })
  expect(response.status).toBe(400)
  expect(await response.json()).toEqual({ errors: ['Failed to read the snapshot: the snapshot must be an object'] })
  expect((await send('/_doppel/health')).status).toBe(200)
  expect((await send(`${ROLE_URL}/old`)).status).toBe(200)
})
