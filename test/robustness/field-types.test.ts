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

/**
 * Fields the real service refuses before the handler, with its own answer: Vault's core reads the `token` of
 * these token-store routes before the token check, and a value that is no string is 403 `invalid token`
 * (docs/reference/cloud-auth.md §7.1).
 */
const REFUSED_BEFORE_HANDLER: Record<string, { field: string; status: number; text: string }> = Object.fromEntries(
  ['lookup', 'renew', 'revoke', 'revoke-orphan'].map((path) => [
    `cloud-auth POST /v1/auth/token/${path}`,
    { field: 'token', status: 403, text: '{"errors":["invalid token"]}\n' },
  ]),
)

describe('a wrong-typed value in any declared field of an auth write', () => {
  it.each(routes.map((route) => [route.label, route] as const))('%s', async (label, route) => {
    const problems: string[] = []
    for (const { field, probe } of route.probes()) {
      const answer = await send(world.doppel, probe)
      const early = REFUSED_BEFORE_HANDLER[label]
      if (early?.field === field) {
        if (answer.status !== early.status || answer.text !== early.text) problems.push(`${field}: ${answer.status} ${answer.text.slice(0, 200)}`)
      } else {
        const problem = answer.status !== 400 ? `status ${answer.status}` : errorBodyProblem('auth', answer)
        if (problem) problems.push(`${field}: ${problem}: ${answer.text.slice(0, 200)}`)
        else if (!answer.text.includes(`\\"${field}\\"`)) problems.push(`${field}: the refusal does not name the field: ${answer.text.slice(0, 200)}`)
      }
      if (snapshot() !== before) {
        problems.push(`${field}: stored state changed`)
        before = snapshot()
      }
    }
    expect(problems.join('\n')).toBe('')
  })
})
