// The second floor of the server benchmark: bare node:http that reads the request, does doppel's own work
// for it in process (`handleInProcess`, on an emulator prepared as the server's is, with the request of
// that work as the server's adapter would hand it over), then answers that answer (status, content type,
// bytes) in the loop's check phase, as doppel's server writes its answers (docs/performance.md, "Answers
// written together"). What doppel's server costs beyond this floor is its own overhead: its guard, its
// adapter, their objects and garbage. The work is done, not timed beforehand and spun: measured in the
// same rounds as the server, a machine whose speed changes during the run moves both alike.
// argv[2]: JSON [{ path, work }], one per work, told apart by the request's path.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { loads, prepare, type Work } from '../fixtures.ts'
import { handleInProcess } from './handle-in-process.ts'

const { doppel, ...bodies } = await prepare()
const requests = loads(bodies)
const works = new Map((JSON.parse(process.argv[2]!) as { path: string; work: Work }[]).map(({ path, work }) => [path, requests[work]]))

const server = createServer((req, res) => {
  const load = works.get(req.url!)
  if (!load) {
    res.writeHead(404).end()
    return
  }
  req.on('data', () => {})
  req.on('end', async () => {
    const { status, type, body } = await handleInProcess(doppel, load)
    // Written at once, each answer wakes a waiting client: 1.28x this floor's CPU a GET role under the
    // bench's 16 connections (2026-11-30), which doppel's server does not pay.
    await nextTurn()
    if (status === 204) {
      res.writeHead(status).end()
      return
    }
    res.writeHead(status, { 'content-type': type, 'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.length })
    res.end(body)
  })
})
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port }) + '\n'))
