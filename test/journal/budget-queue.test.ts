import { runInNewContext } from 'node:vm'
import { setFlagsFromString } from 'node:v8'
import { expect, it } from 'vitest'
import { Journal, JournalBudget } from '../../src/core/journal.ts'

// The journals' byte budget queues every entry it counts; an entry its journal overwrote (the ring is full
// long before the byte limit is reached) must leave that queue too, or a long-running instance grows by
// about a hundred bytes a request for ever (the soak bench found it: 2.8 MB kept after 20k logins).

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

function heapUsed(): number {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

it('an instance answering request after request holds the same memory once its journal is full', () => {
  const journal = new Journal(10, 1024, new JournalBudget())
  const record = () => journal.record({ timeMs: 0, service: 'none', method: 'GET', url: 'http://doppel.test/', status: 200, duration: 0, request: { method: 'GET', path: '/', headers: {}, body: '', truncated: false } }, 100)
  for (let i = 0; i < 10_000; i++) record()
  const before = heapUsed()
  for (let i = 0; i < 300_000; i++) record()
  const grown = heapUsed() - before
  expect(journal.entries()).toHaveLength(10)
  // 300k leftover entries would hold over 10 MB; what stays is the queue's slack.
  expect(grown).toBeLessThan(2 * 1024 * 1024)
})
