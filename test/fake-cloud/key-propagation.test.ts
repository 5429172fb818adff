import { describe, expect, it } from 'vitest'
import { loginWorld } from '../cloud-auth/login-setup.ts'

// Provider eventual consistency, opt-in (spec config/rotate-root: "later calls may fail for a few seconds"):
// with key_propagation_seconds set, a key from CreateAccessKey is refused until that much emulator time passed.
const control = (world: ReturnType<typeof loginWorld>, method: string, body?: unknown) =>
  world.doppel.fetch('http://doppel.test/_doppel/cloud/consistency', {
    method,
    ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  })

describe('key propagation delay', () => {
  it('is off by default: a rotated key works at once', async () => {
    const world = loginWorld()
    expect(await (await control(world, 'GET')).json()).toEqual({ key_propagation_seconds: 0 })
    const svc = world.cloud.createPrincipal({ type: 'user', name: 'svc' })
    await world.api('POST', 'config/client', { access_key: svc.access_key_id, secret_key: svc.secret_access_key })
    expect((await world.api('POST', 'config/rotate-root')).status).toBe(200)
    expect((await world.api('POST', 'role/r', { auth_type: 'iam', bound_iam_principal_arn: svc.arn })).status).toBe(204)
  })

  it('makes the rotated key fail with InvalidClientTokenId until the delay passed on the emulator clock', async () => {
    const world = loginWorld()
    expect(await (await control(world, 'POST', { key_propagation_seconds: 10 })).json()).toEqual({ key_propagation_seconds: 10 })
    const svc = world.cloud.createPrincipal({ type: 'user', name: 'svc' })
    await world.api('POST', 'config/client', { access_key: svc.access_key_id, secret_key: svc.secret_access_key })
    const rotated = await world.api('POST', 'config/rotate-root')
    expect(rotated.status).toBe(200)
    const early = await world.api('POST', 'role/r', { auth_type: 'iam', bound_iam_principal_arn: svc.arn })
    expect(early.body.errors[0]).toMatch(/InvalidClientTokenId: The security token included in the request is invalid\./)
    world.doppel.clock.advance('9s')
    expect((await world.api('POST', 'role/r', { auth_type: 'iam', bound_iam_principal_arn: svc.arn })).status).toBe(400)
    world.doppel.clock.advance('1s')
    expect((await world.api('POST', 'role/r', { auth_type: 'iam', bound_iam_principal_arn: svc.arn })).status).toBe(204)
  })

  it('is per emulator, set in process too, turned off by a reset, and refuses bad settings', async () => {
    const world = loginWorld()
    const other = loginWorld()
    world.cloud.setConsistency({ key_propagation_seconds: 5 })
    expect(other.cloud.consistency()).toEqual({ key_propagation_seconds: 0 })
    const range = 'Failed to set the consistency settings: "key_propagation_seconds" must be an integer from 0 to 3600'
    for (const [bad, message] of [
      [{ key_propagation_seconds: -1 }, range],
      [{ key_propagation_seconds: 1.5 }, range],
      [{ key_propagation_seconds: 3601 }, range],
      [{ other: 1 }, 'Failed to set the consistency settings: unknown field "other"'],
      [{ key_propagation_second: 1 }, 'Failed to set the consistency settings: unknown field "key_propagation_second" (did you mean "key_propagation_seconds"?)'],
    ] as const) {
      const response = await control(world, 'POST', bad)
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ errors: [message] })
    }
    expect(world.cloud.consistency()).toEqual({ key_propagation_seconds: 5 })
    await world.doppel.reset()
    expect(world.cloud.consistency()).toEqual({ key_propagation_seconds: 0 })
  })
})
