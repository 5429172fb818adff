// The second floor of the server benchmark: bare node:http that reads the request, spends on the CPU what
// doppel spends in process on the same work (counted with process.cpuUsage, not wall time), then
// answers doppel's own answer (same status, content type and bytes). What doppel's server costs beyond
// this floor is its own overhead: its adapter, its per-request objects and the garbage they make.
// argv[2]: JSON [{ path, micros, status, type, answer }], one per work, told apart by the request's path.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

interface Spec {
  path: string
  micros: number
  status: number
  type: string
  answer: string
}

const works = new Map(
  (JSON.parse(process.argv[2]!) as Spec[]).map(({ path, micros, status, type, answer }) => {
    const body = Buffer.from(answer)
    const headers = status === 204 ? {} : { 'content-type': type, 'content-length': body.length }
    return [path, { micros, status, headers, body }]
  }),
)

/**
 * Spends `micros` of CPU time. The process's count, not the thread's: on Linux a thread's own count
 * (getrusage RUSAGE_THREAD) only moves at the scheduler's tick, milliseconds apart; nothing else here
 * runs meanwhile.
 */
function busy(micros: number): void {
  const start = process.cpuUsage()
  const until = start.user + start.system + micros
  for (let now = start; now.user + now.system < until; ) now = process.cpuUsage()
}

const server = createServer((req, res) => {
  const work = works.get(req.url!)
  if (!work) {
    res.writeHead(404).end()
    return
  }
  req.on('data', () => {})
  req.on('end', () => {
    busy(work.micros)
    res.writeHead(work.status, work.headers)
    res.end(work.status === 204 ? undefined : work.body)
  })
})
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port }) + '\n'))
