// doppel in process (`handleInProcess`: the server's own path without node:http), measured by this
// process's CPU time per request (process.cpuUsage, all threads, as the server's figure counts them): the
// server table's "in proc" column. Same method as the server's: a warm-up per work, then rounds of an
// uncounted lead-in and a counted run per work, medians. Prints one JSON line: per work, CPU µs per request.
import { loads, prepare, WORKS, type Work } from '../fixtures.ts'
import { median } from '../lib.ts'
import { handleInProcess } from './handle-in-process.ts'

const [warmUpS, leadInS, countS, rounds] = process.argv.slice(2).map(Number) as [number, number, number, number]
const { doppel, ...bodies } = await prepare()
const requests = loads(bodies)
const once = (work: Work) => handleInProcess(doppel, requests[work])

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
process.stdout.write(JSON.stringify(Object.fromEntries(WORKS.map((work) => [work, median(samples.get(work)!)]))) + '\n')
