import fc from 'fast-check'
import { once } from 'node:events'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDoppel, type Doppel } from '../../src/features/doppel/index.ts'
import { createDoppelServer, listen, type RunningServer } from '../../src/faces/server/index.ts'
import { rawExchange, statuses } from './raw-http.ts'

// HTTP edges as a real server answers them: 431, 408, 400 only for malformed requests, the LIST verb
// whatever the TCP segmentation, on keep-alive and pipelined connections, and bodies however they arrive.
let doppel: Doppel
let running: RunningServer

/** A raw write of role `web`, bound to the AMI given. */
function roleWrite(ami: string): string {
  const body = JSON.stringify({ auth_type: 'ec2', bound_ami_id: ami })
  return `POST /v1/auth/cloud/role/web HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-Token: root\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`
}
const ROLE = roleWrite('ami-1')
const LIST_ROLES = 'LIST /v1/auth/cloud/roles HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-Token: root\r\n\r\n'
const HEALTH = 'GET /_doppel/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'

beforeAll(async () => {
  doppel = createDoppel({ seed: 1 })
  running = await listen(createDoppelServer(doppel, { headersTimeoutMs: 300 }), 0, '127.0.0.1')
  const { statusCode } = await fetch(`${running.url}/v1/auth/cloud/role/web`, {
    method: 'POST',
    headers: { 'X-Service-Token': 'root', 'Content-Type': 'application/json' },
    body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-1' }),
  }).then((r) => ({ statusCode: r.status }))
  expect(statusCode).toBe(204)
})

afterAll(() => running.close())

describe('parser errors', () => {
  it('answers 431 to a 40 KB header', async () => {
    const text = await rawExchange(running.port, [`GET /_doppel/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`], 1)
    expect(statuses(text)).toEqual([431])
    expect(text).toContain('431 Request Header Fields Too Large')
  })

  it('answers 408 when the headers do not arrive in time', async () => {
    const started = performance.now()
    const text = await rawExchange(running.port, ['GET /_doppel/health HTTP/1.1\r\nHost: 127.0.0.1\r\n'], 1, { timeoutMs: 3000 })
    expect(statuses(text)).toEqual([408])
    expect(performance.now() - started).toBeGreaterThanOrEqual(250)
  })

  it('answers 408 when a LIST request line stops arriving', async () => {
    const text = await rawExchange(running.port, ['LIS'], 1, { timeoutMs: 3000 })
    expect(statuses(text)).toEqual([408])
  })

  it('answers 400 to a malformed request line', async () => {
    for (const line of ['GET\r\n\r\n', 'get /_doppel/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 'GE\x01 / HTTP/1.1\r\n\r\n', `${'X'.repeat(40)}\r\n\r\n`]) {
      expect(statuses(await rawExchange(running.port, [line], 1)), line).toEqual([400])
    }
  })

  it('lets the service answer a method it does not support (405), as the real service does', async () => {
    for (const method of ['FROB', 'BREW', 'LISTEN', 'LOCKS']) {
      const text = await rawExchange(running.port, [`${method} /v1/auth/cloud/roles HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-Token: root\r\n\r\n`], 1)
      expect(statuses(text), method).toEqual([405])
      expect(text).toContain('{"errors":[]}')
    }
  })

  it('answers 400 to a request target that is not a path', async () => {
    const text = await rawExchange(running.port, ['GET http://127.0.0.1/_doppel/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'], 1)
    expect(statuses(text)).toEqual([400])
  })

  it('answers 400 "malformed Host header" to an admitted Host no URL can hold, in the service\'s envelope, and journals why (it was a 500)', async () => {
    for (const host of ['127.0.0.1:99999', 'localhost:65536', '[::1]:70000']) {
      const text = await rawExchange(running.port, [`GET /v1/auth/cloud/role/web HTTP/1.1\r\nHost: ${host}\r\nX-Service-Token: root\r\n\r\n`], 1)
      expect(statuses(text), host).toEqual([400])
      expect(text).toContain('{"errors":["malformed Host header"]}')
      expect(doppel.journal.entries().at(-1), host).toMatchObject({ method: 'GET', status: 400, explanation: { rule: 'Host header', seen: host } })
    }
    const before = doppel.store.snapshot()
    const write = await rawExchange(running.port, [roleWrite('ami-2').replace('Host: 127.0.0.1', 'Host: 127.0.0.1:99999')], 1)
    expect(statuses(write)).toEqual([400])
    expect(doppel.store.snapshot()).toEqual(before)
  })

  it('answers CONNECT like any request, journals it, and closes the connection after it (no tunnel)', async () => {
    const tunnel = await rawExchange(running.port, ['CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n', HEALTH], 2, { gapMs: 50 })
    expect(statuses(tunnel)).toEqual([400])
    expect(tunnel).toContain('the request target must be a path')
    expect(tunnel).toMatch(/Connection: close/i)
    const onPath = await rawExchange(running.port, ['CONNECT /v1/auth/cloud/roles HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-Token: root\r\n\r\n'], 1)
    expect(statuses(onPath)).toEqual([405])
    expect(onPath).toContain('{"errors":[]}')
    expect(doppel.journal.entries().at(-1)).toMatchObject({ method: 'CONNECT', status: 405 })
  })

  it('closes a CONNECT connection itself after the answer: a client keeping it open does not hold the server\'s close', async () => {
    const own = await listen(createDoppelServer(createDoppel({ seed: 1 })), 0, '127.0.0.1')
    const socket = connect({ port: own.port, host: '127.0.0.1', allowHalfOpen: true })
    socket.on('error', () => {})
    let text = ''
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')))
    const ended = once(socket, 'end')
    await once(socket, 'connect')
    socket.write('CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n')
    await ended
    expect(statuses(text)).toEqual([400])
    const started = performance.now()
    await Promise.race([own.close(), new Promise((resolve) => setTimeout(resolve, 2000))])
    expect(performance.now() - started).toBeLessThan(1000)
    socket.destroy()
  })
})

describe('OPTIONS *', () => {
  it("is answered as Go's server answers it, 200 with an empty body, on a connection that stays open (it was a 500)", async () => {
    const host = `Host: 127.0.0.1:${running.port}`
    const text = await rawExchange(running.port, [`OPTIONS * HTTP/1.1\r\n${host}\r\n\r\nOPTIONS * HTTP/1.1\r\n${host}\r\nContent-Length: 3\r\n\r\nabc${HEALTH}`], 3)
    expect(statuses(text)).toEqual([200, 200, 200])
    const [first] = text.split('\r\n\r\n')
    expect(first).toMatch(/content-length: 0/i)
    expect(first).not.toMatch(/content-type/i)
    expect(text).toContain('{"status":"ok"}')
  })
})

describe('the LIST verb', () => {
  const listed = (text: string) => text.includes('"keys":["web"]')

  it('is answered in one segment', async () => {
    const text = await rawExchange(running.port, [LIST_ROLES], 1)
    expect(statuses(text)).toEqual([200])
    expect(listed(text)).toBe(true)
  })

  it.each([
    ['after "L"', ['L', LIST_ROLES.slice(1)]],
    ['after "LI"', ['LI', LIST_ROLES.slice(2)]],
    ['after "LIS"', ['LIS', LIST_ROLES.slice(3)]],
    ['after "LIST"', ['LIST', LIST_ROLES.slice(4)]],
    ['byte by byte over the method', ['L', 'I', 'S', 'T', LIST_ROLES.slice(4)]],
    ['inside the headers', [LIST_ROLES.slice(0, 20), LIST_ROLES.slice(20, 50), LIST_ROLES.slice(50)]],
  ])('is answered when the request line is split %s, with delays between the segments', async (_label, segments) => {
    const text = await rawExchange(running.port, segments, 1, { gapMs: 30 })
    expect(statuses(text)).toEqual([200])
    expect(listed(text)).toBe(true)
  })

  it('keeps the connection alive: requests before and after it are answered in order', async () => {
    const text = await rawExchange(running.port, [HEALTH, LIST_ROLES, HEALTH, LIST_ROLES, ROLE, HEALTH], 6, { gapMs: 30 })
    expect(statuses(text)).toEqual([200, 200, 200, 200, 204, 200])
    expect(text.match(/"keys":\["web"\]/g)).toHaveLength(2)
  })

  it('works pipelined: several requests in one segment, LIST between them', async () => {
    const text = await rawExchange(running.port, [HEALTH + LIST_ROLES + ROLE + LIST_ROLES + HEALTH], 5)
    expect(statuses(text)).toEqual([200, 200, 204, 200, 200])
    const bodies = text.split(/HTTP\/1\.1 /).slice(1)
    expect(bodies[0]).toContain('"status":"ok"')
    expect(bodies[1]).toContain('"keys":["web"]')
    expect(bodies[3]).toContain('"keys":["web"]')
    expect(bodies[4]).toContain('"status":"ok"')
  })

  it('answers every request in order whatever the segmentation (property, 25 runs)', async () => {
    const stream = Buffer.from(HEALTH + LIST_ROLES + ROLE + LIST_ROLES + HEALTH, 'latin1')
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: stream.length - 1 }), { maxLength: 8 }), async (cuts) => {
        const points = [0, ...cuts.sort((a, b) => a - b), stream.length]
        const segments = points.slice(1).map((end, i) => stream.subarray(points[i], end))
        const text = await rawExchange(running.port, segments, 5, { gapMs: 3 })
        expect(statuses(text)).toEqual([200, 200, 204, 200, 200])
        expect(text.match(/"keys":\["web"\]/g)).toHaveLength(2)
      }),
      { numRuns: 25 },
    )
  })

  it('answers in order when a slow request precedes a pipelined LIST', async () => {
    const fault = doppel.faults.add({ path: '/v1/auth/cloud/role/web', method: 'GET', latency_ms: 200, times: 1 })
    try {
      const slow = 'GET /v1/auth/cloud/role/web HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-Token: root\r\n\r\n'
      const text = await rawExchange(running.port, [slow + LIST_ROLES], 2)
      const bodies = text.split(/HTTP\/1\.1 /).slice(1)
      expect(statuses(text)).toEqual([200, 200])
      expect(bodies[0]).toContain('"bound_ami_id"')
      expect(bodies[1]).toContain('"keys":["web"]')
    } finally {
      doppel.faults.remove(fault.id)
    }
  })

  it('is journaled as LIST', async () => {
    doppel.journal.clear()
    await rawExchange(running.port, ['LI', LIST_ROLES.slice(2)], 1, { gapMs: 20 })
    expect(doppel.journal.entries().map((entry) => entry.method)).toEqual(['LIST'])
  })
})

describe('faults and the control API', () => {
  it('never applies a fault to /_doppel/*, whichever service answers there', async () => {
    doppel.faults.add({ path: '/_doppel/*', status: 503 })
    doppel.faults.add({ path: '/_doppel/cloud/*', drop: true })
    doppel.faults.add({ path: '/_doppel/registry/*', status: 500 })
    try {
      expect((await fetch(`${running.url}/_doppel/health`)).status).toBe(200)
      const instance = await fetch(`${running.url}/_doppel/cloud/instances`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      })
      expect(instance.status).toBe(201)
      const token = await fetch(`${running.url}/_doppel/registry/tokens`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ organizations: [] }),
      })
      expect(token.status).toBeLessThan(500)
    } finally {
      doppel.faults.clear()
    }
  })
})

describe('request bodies', () => {
  it('reads a body that came with its headers and one that follows them, on a connection that stays open', async () => {
    const READ = 'GET /v1/auth/cloud/role/web HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-Token: root\r\n\r\n'
    const late = roleWrite('ami-late')
    const head = late.indexOf('\r\n\r\n') + 4
    // The second body's first bytes come with its headers, the rest 50 ms later.
    const text = await rawExchange(running.port, [roleWrite('ami-along') + READ, late.slice(0, head + 10), late.slice(head + 10) + READ], 4, { gapMs: 50 })
    expect(statuses(text)).toEqual([204, 200, 204, 200])
    const [first, second] = text.split(/HTTP\/1\.1 200/).slice(1)
    expect(first).toContain('"bound_ami_id":["ami-along"]')
    expect(second).toContain('"bound_ami_id":["ami-late"]')
    expect(text.toLowerCase()).not.toContain('connection: close')
    expect(statuses(await rawExchange(running.port, [ROLE], 1))).toEqual([204])
  })
})
