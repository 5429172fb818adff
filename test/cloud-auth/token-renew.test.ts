import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { tokenStore } from '../../src/services/cloud-auth/index.ts'
import { aws4LoginData, BASE, createEc2Role, loginWorld, type JsonReply, type LoginWorld } from './login-setup.ts'

const DENIED = { status: 403, body: { errors: ['permission denied'] } }

async function tokenCall(world: LoginWorld, what: 'renew-self' | 'revoke-self', token: string, body?: unknown, method = 'POST'): Promise<JsonReply> {
  const init: RequestInit = { method, headers: { 'X-Service-Token': token, 'Content-Type': 'application/json' } }
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body)
  const response = await world.doppel.fetch(`${BASE}/v1/auth/token/${what}`, init)
  const text = await response.text()
  return { status: response.status, body: text === '' ? null : JSON.parse(text) }
}

const renew = (world: LoginWorld, token: string, body?: unknown) => tokenCall(world, 'renew-self', token, body)

async function ec2Login(roleFields: Record<string, unknown> = {}) {
  const world = loginWorld()
  const instance = world.cloud.createInstance()
  await createEc2Role(world, 'web', instance, { token_policies: 'dev', token_ttl: '1h', ...roleFields })
  const reply = await world.login({ role: 'web', pkcs7: world.cloud.identityDocument(instance.instance_id, 'rsa2048'), nonce: 'n-1' })
  expect(reply.status).toBe(200)
  return { world, instance, auth: reply.body.auth }
}

async function iamLogin(roleFields: Record<string, unknown> = {}) {
  const world = loginWorld()
  const alice = world.cloud.createPrincipal({ type: 'user', name: 'alice' })
  const role = await world.api('POST', 'role/alice', { auth_type: 'iam', token_policies: 'dev', token_ttl: '30m', bound_iam_principal_arn: alice.arn, ...roleFields })
  expect(role.status).toBe(204)
  const reply = await world.login(aws4LoginData(world, alice))
  expect(reply.status).toBe(200)
  return { world, alice, auth: reply.body.auth }
}

describe('POST /v1/auth/token/renew-self, ec2 tokens', () => {
  it('renews for the role TTL from now on the emulator clock and answers the auth object', async () => {
    const { world, instance, auth } = await ec2Login()
    world.doppel.clock.advance('40m')
    expect((await world.lookupSelf(auth.client_token)).body.data.ttl).toBe(1200)
    const reply = await renew(world, auth.client_token)
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ data: null, warnings: null, mount_type: 'token', lease_duration: 0 })
    expect(reply.body.auth).toEqual({
      client_token: auth.client_token,
      accessor: auth.accessor,
      policies: ['default', 'dev'],
      token_policies: ['default', 'dev'],
      metadata: auth.metadata,
      lease_duration: 3600,
      renewable: true,
      entity_id: auth.entity_id,
      token_type: 'service',
      orphan: true,
      mfa_requirement: null,
      num_uses: 0,
    })
    const lookup = (await world.lookupSelf(auth.client_token)).body.data
    expect(lookup.ttl).toBe(3600)
    expect(lookup.expire_time).toBe('2026-03-01T13:40:00Z')
    world.doppel.clock.advance('59m')
    expect((await world.lookupSelf(auth.client_token)).status).toBe(200)
    const entry = (await world.api('GET', `identity-accesslist/${instance.instance_id}`)).body.data
    expect(entry.last_updated_time).toBe('2026-03-01T12:40:00Z')
    expect(entry.expiration_time).toBe('2026-04-02T12:40:00Z')
  })

  it('takes an increment and caps the TTL at the role max counted from the issue time', async () => {
    const { world, auth } = await ec2Login({ token_max_ttl: '2h' })
    expect((await renew(world, auth.client_token, { increment: '30m' })).body.auth.lease_duration).toBe(1800)
    world.doppel.clock.advance('20m')
    expect((await renew(world, auth.client_token, { increment: '1h' })).body.auth.lease_duration).toBe(3600)
    world.doppel.clock.advance('50m')
    const capped = await renew(world, auth.client_token, { increment: 3600 })
    expect(capped.body.auth.lease_duration).toBe(3000)
    expect(capped.body.warnings).toEqual(['TTL of "1h" exceeded the effective max_ttl of "50m"; TTL value is capped accordingly'])
    world.doppel.clock.advance('49m')
    expect((await world.lookupSelf(auth.client_token)).body.data.ttl).toBe(60)
  })

  it('refuses once the instance is stopped, leaving the token as it was', async () => {
    const { world, instance, auth } = await ec2Login()
    world.cloud.setInstanceState(instance.instance_id, 'stopped')
    world.doppel.clock.advance('10m')
    expect(await renew(world, auth.client_token)).toEqual({
      status: 400,
      body: { errors: [`failed to renew entry: failed to verify instance ID "${instance.instance_id}": instance is not in 'running' state`] },
    })
    expect((await world.lookupSelf(auth.client_token)).body.data.ttl).toBe(3000)
    const entry = (await world.api('GET', `identity-accesslist/${instance.instance_id}`)).body.data
    expect(entry.last_updated_time).toBe('2026-03-01T12:00:00Z')
  })

  it('refuses once the access-list entry is deleted', async () => {
    const { world, instance, auth } = await ec2Login()
    expect((await world.api('DELETE', `identity-accesslist/${instance.instance_id}`)).status).toBe(204)
    expect(await renew(world, auth.client_token)).toEqual({
      status: 400,
      body: { errors: [`failed to renew entry: failed to verify the access list identity entry for instance ID: "${instance.instance_id}"`] },
    })
  })

  it('refuses once the role is deleted', async () => {
    const { world, auth } = await ec2Login()
    expect((await world.api('DELETE', 'role/web')).status).toBe(204)
    expect(await renew(world, auth.client_token)).toEqual({ status: 400, body: { errors: ['failed to renew entry: role entry not found'] } })
  })

  it('reads the role TTL and period current at renewal', async () => {
    const { world, auth } = await ec2Login()
    expect((await world.api('POST', 'role/web', { token_ttl: '10m' })).status).toBe(204)
    expect((await renew(world, auth.client_token)).body.auth.lease_duration).toBe(600)
    expect((await world.api('POST', 'role/web', { token_period: '5m' })).status).toBe(204)
    expect((await renew(world, auth.client_token, { increment: '1h' })).body.auth.lease_duration).toBe(300)
  })
})

describe('POST /v1/auth/token/renew-self, iam tokens', () => {
  it('renews while the principal is still bound', async () => {
    const { world, auth } = await iamLogin()
    world.doppel.clock.advance('20m')
    const reply = await tokenCall(world, 'renew-self', auth.client_token, undefined, 'PUT')
    expect(reply.status).toBe(200)
    expect(reply.body.auth).toMatchObject({ client_token: auth.client_token, lease_duration: 1800, token_type: 'service' })
    expect((await world.lookupSelf(auth.client_token)).body.data.ttl).toBe(1800)
  })

  it('refuses after the principal is recreated and the role posted again (new unique id)', async () => {
    const { world, alice, auth } = await iamLogin()
    world.cloud.deletePrincipal(alice.arn)
    world.cloud.createPrincipal({ type: 'user', name: 'alice' })
    expect((await renew(world, auth.client_token)).status).toBe(200)
    expect((await world.api('POST', 'role/alice', { bound_iam_principal_arn: alice.arn })).status).toBe(204)
    expect(await renew(world, auth.client_token)).toEqual({
      status: 400,
      body: { errors: [`failed to renew entry: role "alice" no longer bound to ARN "${alice.arn}"`] },
    })
  })

  it('renews through a wildcard bind and refuses once the role is deleted', async () => {
    const { world, auth } = await iamLogin({ bound_iam_principal_arn: 'arn:aws:iam::123456789012:user/*' })
    expect((await renew(world, auth.client_token)).status).toBe(200)
    expect((await world.api('DELETE', 'role/alice')).status).toBe(204)
    expect(await renew(world, auth.client_token)).toEqual({ status: 400, body: { errors: ['failed to renew entry: role entry not found'] } })
  })
})

describe('renew-self refusals', () => {
  it('refuses batch tokens', async () => {
    const { world, auth } = await ec2Login({ token_type: 'batch' })
    expect(auth.client_token).toMatch(/^hvb\./)
    expect(await renew(world, auth.client_token)).toEqual({ status: 400, body: { errors: ['batch tokens cannot be renewed'] } })
  })

  it('refuses unknown, missing and expired tokens with 403', async () => {
    const { world, auth } = await ec2Login()
    expect(await renew(world, 'hvs.unknown')).toEqual(DENIED)
    expect((await world.doppel.fetch(`${BASE}/v1/auth/token/renew-self`, { method: 'POST' })).status).toBe(403)
    world.doppel.clock.advance('61m')
    expect(await renew(world, auth.client_token)).toEqual(DENIED)
  })

  it("answers a login's token's GET with the ACL's 403 (the default policy grants update only), a root token's with the 405", async () => {
    const { world, auth } = await ec2Login()
    const denied = await tokenCall(world, 'renew-self', auth.client_token, undefined, 'GET')
    expect(denied).toEqual({ status: 403, body: { errors: ['1 error occurred:\n\t* permission denied\n\n'] } })
    const reply = await tokenCall(world, 'renew-self', 'root', undefined, 'GET')
    expect(reply).toEqual({ status: 405, body: { errors: ['1 error occurred:\n\t* unsupported operation\n\n'] } })
  })

  it('answers any bad increment with a 400 field error and leaves the token unchanged', async () => {
    const { world, auth } = await ec2Login()
    world.doppel.clock.advance('10m')
    const before = structuredClone(tokenStore(world.doppel).tokens.get(auth.client_token))
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string().filter((s) => !/^\s*[+-]?[0-9.]/.test(s) && s !== ''), fc.array(fc.integer()), fc.constant(-5)),
        async (increment) => {
          const reply = await renew(world, auth.client_token, { increment })
          expect(reply.status).toBe(400)
          expect(reply.body.errors[0]).toMatch(/^Field validation failed: error converting input for field "increment"/)
        },
      ),
      { numRuns: 60 },
    )
    expect(tokenStore(world.doppel).tokens.get(auth.client_token)).toEqual(before)
  })
})

describe('POST /v1/auth/token/revoke-self', () => {
  it('revokes the calling token: 204, then lookup-self and renew-self answer 403', async () => {
    const { world, auth } = await ec2Login()
    const reply = await tokenCall(world, 'revoke-self', auth.client_token)
    expect(reply).toEqual({ status: 204, body: null })
    expect(await world.lookupSelf(auth.client_token)).toEqual(DENIED)
    expect(await renew(world, auth.client_token)).toEqual(DENIED)
    expect(await tokenCall(world, 'revoke-self', auth.client_token)).toEqual(DENIED)
  })

  it('refuses unknown tokens', async () => {
    const { world } = await ec2Login()
    expect(await tokenCall(world, 'revoke-self', 'hvs.nope', undefined, 'PUT')).toEqual(DENIED)
  })
})
