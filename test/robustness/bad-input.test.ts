import { beforeAll, describe, expect, it } from 'vitest'
import { errorBodyProblem, send } from './answer.ts'
import { badInputs } from './bad-inputs.ts'
import { allEndpoints } from './endpoints.ts'
import { robustWorld, type RobustWorld } from './robust-world.ts'

// Every endpoint × every bad input that applies to it: a 4xx with the service's own error body, an
// answer within the per-request timeout, stored state exactly as after set-up, and an explanation in the
// journal that says why in words (never only an internal DOPPEL_* code), except where UNEXPLAINED says.
/**
 * `endpoint / input` pairs whose 4xx may come without an explanation, each with why. Keep it short: a
 * newcomer reads the journal to learn why a request was refused.
 */
const UNEXPLAINED: RegExp[] = []

let world: RobustWorld
let before: string
const endpoints = allEndpoints(() => world)
const inputs = badInputs(() => world)
const snapshot = () => JSON.stringify(world.doppel.store.snapshot())

beforeAll(async () => {
  world = await robustWorld()
  before = snapshot()
})

describe('bad input to every endpoint: a 4xx with the service’s error body, no hang, no change', () => {
  it.each(endpoints.map((endpoint) => [endpoint.label, endpoint] as const))('%s', async (_label, endpoint) => {
    const problems: string[] = []
    let probes = 0
    for (const input of inputs) {
      const probe = input.probe(endpoint)
      if (probe === undefined) continue
      probes++
      const where = `${input.label}`
      let answer
      try {
        answer = await send(world.doppel, probe)
      } catch (error) {
        problems.push(`${where}: ${(error as Error).message}`)
        continue
      }
      if (answer.status < 400 || answer.status > 499) problems.push(`${where}: status ${answer.status} ${answer.text.slice(0, 200)}`)
      else {
        const problem = errorBodyProblem(endpoint.family, answer)
        if (problem) problems.push(`${where}: ${answer.status} ${problem}: ${answer.text.slice(0, 200)}`)
        const explanation = world.doppel.journal.entry(world.doppel.journal.total)?.explanation
        if (explanation === undefined && !UNEXPLAINED.some((allowed) => allowed.test(`${endpoint.label} / ${input.label}`))) {
          problems.push(`${where}: ${answer.status} without an explanation in the journal`)
        }
        if (explanation && /^DOPPEL_[A-Z0-9_]+$/.test(explanation.rule)) problems.push(`${where}: the explanation's rule is only the code ${explanation.rule}`)
      }
      const after = snapshot()
      if (after !== before) {
        problems.push(`${where}: stored state changed`)
        before = after
      }
    }
    expect(probes).toBeGreaterThan(0)
    expect(problems.join('\n')).toBe('')
  })
})
