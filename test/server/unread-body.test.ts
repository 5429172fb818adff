import { Agent, request } from 'node:http'
import { connect, type Socket } from 'node:net'
import { once } from 'node:events'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { createDoppelServer, listen, type RunningServer } from '../../src/faces/server/index.ts'
import { rawExchange, statuses } from './raw-http.ts'

// A body that had not arrived to its end when its answer was ready (a service answered without it, the
// journal kept its start, a limit refused it): the connection is at an unknown point of the byte stream, so
// the answer says `Connection: close` and the connection ends after it; the client's next request goes on a new connection and is answered.
// A body that arrived whole keeps its connection usable, read or not. (Over 1 MiB, or chunked, a body
// streams; smaller ones are read whole before any service sees them.)
let running: RunningServer
let agent: Agent

beforeAll(async () => {
  running = await listen(createDoppelServer(createDoppel({ seed: 1 })), 0, '127.0.0.1')
})
afterAll(() => running.close())
afterEach(() => agent?.destroy())

interface Answer {
  status: number
  connection: string | undefined
  text: string
  socket: Socket
}

/** One request through a keep-alive agent of one socket, as a client library sends it; to doppel's server unless `origin` says. */
function send(path: string, { body, chunked = false, headers = {}, origin = running.url }: { body?: string; chunked?: boolean; headers?: Record<string, string>; origin?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const bytes = body === undefined ? undefined : Buffer.from(body)
    const req = request(
      `${origin}${path}`,
      {
        method: bytes === undefined ? 'GET' : 'POST',
        agent,
        headers: { 'Content-Type': 'application/json', ...headers, ...(bytes && !chunked && { 'Content-Length': String(bytes.length) }) },
      },
      (res) => {
        const socket = res.socket as Socket
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, text, socket }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    if (bytes && chunked) for (let at = 0; at < bytes.length; at += 16 * 1024) req.write(bytes.subarray(at, at + 16 * 1024))
    req.end(bytes && !chunked ? bytes : undefined)
  })
}

const large = (size: number) => JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-1', pad: 'x'.repeat(size) })
const ROOT = { 'X-Service-Token': 'root' }

/** A request, then a health check through the same keep-alive agent of one socket: the first answer, and whether its socket carried the second. */
async function andThenAnother(path: string, init: Parameters<typeof send>[1]): Promise<{ first: Answer; reused: boolean }> {
  agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const first = await send(path, init)
  const next = await send('/_doppel/health')
  expect(next.status).toBe(200)
  return { first, reused: next.socket === first.socket }
}

describe('a request whose body had not arrived to its end when it was answered', () => {
  it.each([
    ['no service owns its path (404)', '/nope', { body: large(2_000_000) }, 404, '404 page not found\n'],
    [
      'over the registry body limit (413)',
      '/api/v2/organizations/acme/registry-modules',
      { body: large(2_000_000), headers: { Authorization: 'Bearer root', 'Content-Type': 'application/vnd.api+json' } },
      413,
      '{"errors":[{"status":"413","title":"request entity too large","detail":"request body exceeds 1048576 bytes"}]}',
    ],
  ] as const)('is answered with Connection: close when %s, changes nothing, and the next request on the agent goes on a new connection', async (_, path, init, status, text) => {
    const state = async () => (await fetch(`${running.url}/_doppel/state`)).text()
    // A first request to the service lists its (empty) collections in the state; the refused one adds nothing.
    await fetch(`${running.url}${path}`)
    const before = await state()
    const { first, reused } = await andThenAnother(path, init)
    expect(first).toMatchObject({ status, connection: 'close', text })
    expect(reused).toBe(false)
    expect(await state()).toBe(before)
  })

  it('goes on reading after that answer: a client still sending a 16 MB body gets the answer, its write completes, then the connection ends', async () => {
    // As hvac or fetch send a body: in one write, reading the answer as it comes. Closed at once under the
    // body, the socket was reset and the client's write failed with EPIPE, sometimes before it read the answer.
    const socket = connect({ port: running.port, host: '127.0.0.1', allowHalfOpen: true })
    const errors: string[] = []
    socket.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message))
    let text = ''
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')))
    const ended = once(socket, 'end')
    await once(socket, 'connect')
    const body = Buffer.alloc(16 * 1024 * 1024, 'x')
    socket.write(`POST /nope HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`)
    const written = new Promise<Error | null | undefined>((resolve) => socket.write(body, resolve))
    expect(await written).toBeFalsy()
    await ended
    socket.destroy()
    expect(errors).toEqual([])
    expect(statuses(text)).toEqual([404])
    expect(text).toMatch(/\r\nConnection: close\r\n/i)
    expect(text.endsWith('404 page not found\n')).toBe(true)
  })

  it('is answered with Connection: close while the client still holds back the rest of the body', async () => {
    const head = 'POST /nope HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n'
    const text = await rawExchange(running.port, [head + 'x'.repeat(20_000)], 1)
    expect(statuses(text)).toEqual([404])
    expect(text).toMatch(/\r\nConnection: close\r\n/i)
  })
})

describe('a request whose body arrived whole', () => {
  it.each([
    ['a chunked body nobody read, to a path no service owns (404)', '/nope', { body: large(1000), chunked: true }, 404],
    ['a 2 MB role written (204)', '/v1/auth/cloud/role/big', { body: large(2_000_000), headers: ROOT }, 204],
    ['a chunked role written (204)', '/v1/auth/cloud/role/chunked', { body: large(100_000), chunked: true, headers: ROOT }, 204],
    ['a 2 MB role write without a token (403, the body read first as the real service reads it)', '/v1/auth/cloud/role/big', { body: large(2_000_000) }, 403],
  ] as const)('keeps its connection: %s, then the next request on the same socket', async (_, path, init, status) => {
    const { first, reused } = await andThenAnother(path, init)
    expect(first).toMatchObject({ status, connection: 'keep-alive' })
    expect(reused).toBe(true)
  })
})

describe("an instance's own metadata listener", () => {
  it('answers a 2 MB body it does not read with Connection: close, and the next request on the agent', async () => {
    const doppel = createDoppel({ seed: 1 })
    try {
      const instance = doppel.cloud.createInstance({})
      const { endpoint } = await doppel.cloud.startImdsListener(instance.instance_id)
      agent = new Agent({ keepAlive: true, maxSockets: 1 })
      const first = await send('/latest/meta-data/instance-id', { body: large(2_000_000), origin: endpoint })
      expect(first.status).toBe(405)
      expect(first.connection).toBe('close')
      const next = await send('/latest/meta-data/instance-id', { origin: endpoint })
      expect(next).toMatchObject({ status: 200, text: instance.instance_id, connection: 'keep-alive' })
    } finally {
      await doppel.cloud.close()
    }
  })
})
