import { beforeAll, describe, expect, it } from 'vitest'
import { errorBodyProblem, send } from './answer.ts'
import { fieldProbes } from './endpoints.ts'
import { robustWorld, type RobustWorld } from './robust-world.ts'

// Every field the auth method declares for a write (its field schemas, through the route inventory): a
// value of no convertible type answers 400 naming the field, in the service's error body, and changes nothing.
let world: RobustWorld
let before: string
const routes = fieldProbes(() => world)
const snapshot = () => JSON.stringify(world.doppel.store.snapshot())

beforeAll(async () => {
  world = await robustWorld()
  before = snapshot()
})

describe('a wrong-typed value in any declared field of an auth write', () => {
  it.each(routes.map((route) => [route.label, route] as const))('%s', async (_label, route) => {
    const problems: string[] = []
    for (const { field, probe } of route.probes()) {
      const answer = await send(world.doppel, probe)
      const problem = answer.status !== 400 ? `status ${answer.status}` : errorBodyProblem('auth', answer)
      if (problem) problems.push(`${field}: ${problem}: ${answer.text.slice(0, 200)}`)
      else if (!answer.text.includes(`\\"${field}\\"`)) problems.push(`${field}: the refusal does not name the field: ${answer.text.slice(0, 200)}`)
      if (snapshot() !== before) {
        problems.push(`${field}: stored state changed`)
        before = snapshot()
      }
    }
    expect(problems.join('\n')).toBe('')
  })
})
