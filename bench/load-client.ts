// The second process of the server benchmark: reads one autocannon configuration per stdin line, runs
// it, and prints its result as one JSON line. Kept alive across runs so its start-up is paid once.
// autocannon checks for the end of a run at each sample, by default once a second: sampled every 100 ms,
// a run lasts its duration to a tenth of a second (1.5 s, not 2).
import autocannon from 'autocannon'
import { createInterface } from 'node:readline'

for await (const line of createInterface({ input: process.stdin })) {
  const config = JSON.parse(line) as Record<string, unknown>
  const result = await autocannon({ connections: 16, pipelining: 1, duration: 2, sampleInt: 100, ...config })
  process.stdout.write(JSON.stringify({ total: result.requests.total, sent: result.requests.sent, non2xx: result.non2xx, errors: result.errors }) + '\n')
}
