import { describe, expect, it } from 'vitest'
import { aws4LoginData, loginWorld } from './login-setup.ts'

// The fake STS refuses a scope that does not fit its endpoint, so the login's choice of endpoint shows
// (docs/reference/cloud-auth.md §5 B.3, B.5; TestRegionFromHeader).
function setup() {
  const world = loginWorld()
  const alice = world.cloud.createPrincipal({ type: 'user', name: 'alice' })
  return { world, alice }
}

describe('iam login and the STS credential scope', () => {
  it('a eu-west-1 scope forwarded to the global endpoint is refused by STS, passed through unchanged', async () => {
    const { world, alice } = setup()
    await world.api('POST', 'role/alice', { auth_type: 'iam', bound_iam_principal_arn: alice.arn })
    const reply = await world.login({ role: 'alice', ...aws4LoginData(world, alice, { region: 'eu-west-1' }) })
    expect(reply.status).toBe(400)
    const [message] = reply.body.errors as string[]
    expect(message).toMatch(/^error making upstream request: received error code 403 from STS: <ErrorResponse/)
    expect(message).toContain("<Message>Credential should be scoped to a valid region, not 'eu-west-1'. </Message>")
  })

  it('a region that does not exist is refused at the global endpoint', async () => {
    const { world, alice } = setup()
    await world.api('POST', 'role/alice', { auth_type: 'iam', bound_iam_principal_arn: alice.arn })
    const reply = await world.login({ role: 'alice', ...aws4LoginData(world, alice, { region: 'nowhere-1' }) })
    expect(reply.body.errors[0]).toContain("not 'nowhere-1'. ")
  })

  it('use_sts_region_from_client sends it to sts.<region>.amazonaws.com, where the same request passes', async () => {
    const { world, alice } = setup()
    await world.api('POST', 'role/alice', { auth_type: 'iam', bound_iam_principal_arn: alice.arn })
    await world.api('POST', 'config/client', { use_sts_region_from_client: true })
    const reply = await world.login({ role: 'alice', ...aws4LoginData(world, alice, { region: 'eu-west-1' }) })
    expect(reply.status).toBe(200)
    const unknown = await world.login({ role: 'alice', ...aws4LoginData(world, alice, { region: 'nowhere-1' }) })
    expect(unknown.body).toEqual({ errors: ['unable to get regional STS endpoint for region: nowhere-1'] })
  })

  it('sts_endpoint naming a regional STS host stays in process and is held to that region', async () => {
    const { world, alice } = setup()
    await world.api('POST', 'role/alice', { auth_type: 'iam', bound_iam_principal_arn: alice.arn })
    await world.api('POST', 'config/client', { sts_endpoint: 'https://sts.eu-west-1.amazonaws.com', sts_region: 'eu-west-1' })
    expect((await world.login({ role: 'alice', ...aws4LoginData(world, alice, { region: 'eu-west-1' }) })).status).toBe(200)
    const global = await world.login({ role: 'alice', ...aws4LoginData(world, alice) })
    expect(global.body.errors[0]).toContain("not 'us-east-1'. ")
  })
})
