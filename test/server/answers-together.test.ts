import { connect, type Socket } from 'node:net'
import type { ServerResponse } from 'node:http'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { createDoppelServer, listen, type RunningServer } from '../../src/faces/server/index.ts'

// Requests that arrive together are all handled before any answer is written: under load the clients
// waiting on them are woken once, not once per answer (docs/performance.md, "Answers written together").
let running: RunningServer
const answers: ServerResponse[] = []
/** For each request handled, whether each answer begun before it had been written. */
const writtenWhenHandled: boolean[][] = []

beforeAll(async () => {
  const doppel = createDoppel({ seed: 1 })
  const server = createDoppelServer({
    handle(request, options) {
      writtenWhenHandled.push(answers.map((res) => res.headersSent))
      return doppel.handle(request, options)
    },
  })
  server.on('request', (_req, res: ServerResponse) => answers.push(res))
  running = await listen(server, 0, '127.0.0.1')
  // The first request loads the service's code: a wait of its own that would let the next request in anyway.
  await fetch(`http://127.0.0.1:${running.port}/v1/auth/cloud/role/absent`, { headers: { 'X-Service-Token': 'root' } })
  answers.length = 0
  writtenWhenHandled.length = 0
})
afterAll(() => running.close())

const opened = (port: number) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket))
    socket.once('error', reject)
  })

const answered = (socket: Socket) =>
  new Promise<string>((resolve) => {
    let text = ''
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString()
      const head = text.indexOf('\r\n\r\n')
      const length = /content-length: (\d+)/i.exec(text)
      if (head !== -1 && length && text.length >= head + 4 + Number(length[1])) resolve(text)
    })
  })

it('two requests that arrive in one turn of the loop are both handled before either answer is written', async () => {
  const sockets = [await opened(running.port), await opened(running.port)]
  const texts = sockets.map(answered)
  // Written in one tick: both requests are in the server's sockets when its loop next polls.
  for (const socket of sockets) socket.write('GET /v1/auth/cloud/role/absent HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-Token: root\r\n\r\n')
  const [first, second] = await Promise.all(texts)
  for (const text of [first, second]) expect(text, text).toMatch(/^HTTP\/1\.1 404 /)
  expect(writtenWhenHandled).toEqual([[false], [false, false]])
  for (const socket of sockets) socket.destroy()
})
