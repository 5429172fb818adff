// doppel in process, measured by this process's CPU time per request (process.cpuUsage, all threads, as
// the server's figure counts them): what the CPU-matched floor spends before answering. In process is the
// server's own path without node:http: `doppel.handle` of the light request the server's adapter builds
// (raw headers, the body's bytes), the answer taken as the adapter takes it; `doppel.fetch` would add a
// Fetch Request and Response that the server does not make. Same method as the server's: a warm-up per
// work, then rounds of an uncounted lead-in and a counted run per work, medians. Prints one JSON line: per
// work, CPU µs per request and the answer.
import { LightRequest } from '../../src/core/light-request.ts'
import { responseHeader, responseParts } from '../../src/core/light-response.ts'
import { loads, prepare, WORKS, type Work } from '../fixtures.ts'
import { median } from '../lib.ts'

const [warmUpS, leadInS, countS, rounds] = process.argv.slice(2).map(Number) as [number, number, number, number]
const { doppel, ...bodies } = await prepare()
const requests = loads(bodies)

/**
 * One request of a work, answered and its answer taken as the server's adapter takes it: a light
 * answer's parts as they are (the adapter writes them; reading them through `arrayBuffer()` would build a
 * Fetch Response the server never makes), any other answer read whole.
 */
async function once(work: Work): Promise<{ status: number; type: string; body: string | Uint8Array }> {
  const { method, path, headers = {}, body } = requests[work]
  const raw = ['Host', '127.0.0.1', ...Object.entries(headers).flat()]
  if (body !== undefined) raw.push('Content-Length', String(Buffer.byteLength(body)))
  const res = await doppel.handle(new LightRequest(method, `http://127.0.0.1${path}`, raw, body === undefined ? undefined : Buffer.from(body)))
  if (res.status >= 300) throw new Error(`in process, ${work} answered ${res.status} ${await res.text()}`)
  const parts = responseParts(res)
  if (parts) return { status: parts.status, type: responseHeader(res, 'content-type') ?? '', body: parts.body ?? '' }
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: new Uint8Array(await res.arrayBuffer()) }
}

/** CPU µs per request over `seconds` of one work, called one after another. */
async function run(work: Work, seconds: number): Promise<number> {
  const until = performance.now() + seconds * 1000
  const before = process.cpuUsage()
  let count = 0
  while (performance.now() < until) {
    await once(work)
    count++
  }
  const spent = process.cpuUsage(before)
  return (spent.user + spent.system) / count
}

for (const work of WORKS) await run(work, warmUpS)
const samples = new Map<Work, number[]>(WORKS.map((work) => [work, []]))
for (let round = 0; round < rounds; round++) {
  for (const work of WORKS) {
    await run(work, leadInS)
    samples.get(work)!.push(await run(work, countS))
  }
}
const result: Record<string, { micros: number; status: number; type: string; answer: string }> = {}
for (const work of WORKS) {
  const { status, type, body } = await once(work)
  result[work] = { micros: median(samples.get(work)!), status, type, answer: typeof body === 'string' ? body : Buffer.from(body).toString() }
}
process.stdout.write(JSON.stringify(result) + '\n')
