import { once } from 'node:events'
import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { startServe, stopServe, type ServeProcess } from './serve-process.ts'

// SIGTERM and SIGINT stop `doppel serve` within a second, even with a 60 s latency fault pending, a body
// still uploading and idle keep-alive connections open; a request in flight gets an answer (a 503 in its
// service's envelope), never an empty reply.
let serve: ServeProcess | undefined
afterEach(() => stopServe(serve))

/** A keep-alive connection that was used once and now sits idle. */
async function idleConnection(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1')
  socket.write('GET /_doppel/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n')
  await once(socket, 'data')
  socket.on('error', () => undefined)
  return socket
}

describe.each(['SIGTERM', 'SIGINT'] as const)('%s', (signal) => {
  it('exits with 0 within a second while a 60 s latency fault holds a request', async () => {
    serve = await startServe([])
    const fault = await fetch(`${serve.url}/_doppel/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: '/v1/auth/cloud/*', latency_ms: 60_000 }),
    })
    expect(fault.status).toBe(201)
    const held = fetch(`${serve.url}/v1/auth/cloud/roles?list=true`, { headers: { 'X-Service-Token': 'root' } }).then(
      async (response) => `answered ${response.status} ${await response.text()}`,
      () => 'failed',
    )
    // A control write whose body is half sent: its handler waits on the client.
    const uploading = connect(serve.port, '127.0.0.1')
    uploading.on('error', () => undefined)
    let uploadAnswer = ''
    uploading.on('data', (chunk: Buffer) => (uploadAnswer += chunk.toString()))
    uploading.write('POST /_doppel/clock HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"adv')
    const idle = await idleConnection(serve.port)
    const closed = once(idle, 'close')
    // The held request has reached the fault: nothing answers it for 60 s.
    const early = await Promise.race([held, new Promise((resolve) => setTimeout(() => resolve('pending'), 300))])
    expect(early).toBe('pending')

    const started = performance.now()
    serve.child.kill(signal)
    const [code] = await once(serve.child, 'exit')
    const elapsed = performance.now() - started
    expect(code).toBe(0)
    expect(elapsed).toBeLessThan(1000)
    expect(await held).toBe('answered 503 {"errors":["doppel is stopping: the request was not finished"]}\n')
    await closed
    expect(uploadAnswer).toMatch(/^HTTP\/1\.1 503 [\s\S]*\r\n\r\n\{"errors":\["doppel is stopping: the request was not finished"\]\}\n$/)
  })
})
