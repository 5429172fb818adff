import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { send } from './answer.ts'
import { allEndpoints, type Endpoint, type Probe, type ValueKind } from './endpoints.ts'
import { robustWorld, type RobustWorld } from './robust-world.ts'

// A fast-check fuzz run over every endpoint of the corpus (endpoints.ts): generated bodies and values,
// a few hundred requests in all, bounded in time. Every answer comes within the timeout and is not a
// 5xx, and a refused request (4xx) leaves the stored state exactly as it was.

const RUNS = 400
const TIME_LIMIT_MS = 15_000
const ANSWER_TIMEOUT_MS = 5_000

let world: RobustWorld
const endpoints = allEndpoints(() => world)
const snapshot = () => JSON.stringify(world.doppel.store.snapshot())

beforeAll(async () => {
  world = await robustWorld()
})

/** Text that looks like what parsers meet: JSON of any shape, deep nesting, odd characters, long runs. */
const text = fc.oneof(
  fc.json({ depthSize: 'medium' }),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', ':', ',', '\\', '-', '*', '/', '%', '\n', ' ', 'a', '0'), maxLength: 200 }),
  fc.integer({ min: 1, max: 100_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.integer({ min: 1, max: 50_000 }).map((depth) => '- '.repeat(depth) + 'x'),
  fc.constantFrom('1e308', '-1', '9223372036854775808', 'NaN', 'null', '""', '10.0.0.0/33', '*a*a*a*a*a*a*a*a*a*b', '+275760-09-13T00:00:00Z'),
)

/** One request: a raw body to an endpoint that takes one, or a generated value of a kind it takes. */
const request = fc.integer({ min: 0, max: endpoints.length - 1 }).chain((index) => {
  const endpoint = endpoints[index]!
  const kinds = Object.keys(endpoint.takes) as ValueKind[]
  const choices: fc.Arbitrary<{ endpoint: Endpoint; label: string; build: () => Probe | undefined }>[] = []
  if (endpoint.send) choices.push(text.map((body) => ({ endpoint, label: 'body', build: () => endpoint.send!(body) })))
  if (kinds.length > 0) {
    choices.push(
      fc.tuple(fc.constantFrom(...kinds), text).map(([kind, value]) => ({
        endpoint,
        label: kind,
        // `types` values stand in raw JSON: keep them JSON, or the probe is only malformed JSON again.
        build: () => endpoint.takes[kind]!(kind === 'types' ? JSON.stringify(value) : value),
      })),
    )
  }
  return fc.oneof(...choices)
})

/** Whether a client could send it at all (a header value with a control character cannot be). */
function sendable(probe: Probe): boolean {
  try {
    new Headers(probe.headers)
    new URL(probe.url)
    return true
  } catch {
    return false
  }
}

describe('fuzz: generated input to every endpoint', () => {
  it(`answers without a 5xx or a hang, and refusals change nothing (${RUNS} runs, at most ${TIME_LIMIT_MS / 1000} s)`, async () => {
    const counts = { runs: 0, refused: 0, accepted: 0, skipped: 0 }
    const byStatus = new Map<number, number>()
    let before = snapshot()
    await fc.assert(
      fc.asyncProperty(request, async ({ endpoint, label, build }) => {
        const probe = build()
        if (probe === undefined || !sendable(probe)) {
          counts.skipped++
          return
        }
        counts.runs++
        const answer = await send(world.doppel, probe, ANSWER_TIMEOUT_MS)
        byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1)
        // A fault the fuzz managed to add must not hold later requests.
        world.doppel.faults.clear()
        const after = snapshot()
        expect(answer.status, `${endpoint.label} (${label}): ${answer.text.slice(0, 200)}`).toBeLessThan(500)
        if (answer.status >= 400) {
          counts.refused++
          expect(after === before, `${endpoint.label} (${label}) was refused with ${answer.status} but changed the state`).toBe(true)
        } else {
          counts.accepted++
          before = after
        }
      }),
      { numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false },
    )
    const statuses = [...byStatus].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ')
    console.log(`fuzz: ${counts.runs} requests over ${endpoints.length} endpoints: ${counts.refused} refused, ${counts.accepted} accepted, ${counts.skipped} not applicable; ${statuses}`)
    expect(counts.runs).toBeGreaterThan(100)
  }, 60_000)
})
