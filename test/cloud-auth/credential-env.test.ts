import { describe, expect, it } from 'vitest'
import { getFakeCloud } from '../../src/services/fake-cloud/index.ts'
import { managementClient } from './management-client.ts'

/**
 * The service's own credentials from the environment (docs/reference/cloud-auth.md §3.1): the spec's `CLOUD_*`
 * names in the service profile, the Go SDK's `AWS_*` names (as Vault reads them) in the vault profile.
 * What the credentials are shows in a role write that resolves an ARN: unknown keys fail the
 * GetCallerIdentity the service makes as itself; without keys it acts as the fake cloud's default identity.
 */
const ACCOUNT = '123456789012'
const UNKNOWN_CALLER = 'unable to fetch current caller: InvalidClientTokenId: The security token included in the request is invalid.'

async function resolveWith(profile: 'service' | 'vault', env: Record<string, string>) {
  const api = managementClient({ profile, cloudAuth: { env } })
  getFakeCloud(api.doppel).createPrincipal({ type: 'user', name: 'alice', account_id: ACCOUNT })
  return api.write('role/r', { bound_iam_principal_arn: `arn:aws:iam::${ACCOUNT}:user/alice` })
}

const UNKNOWN = { key: 'AKIAUNKNOWNUNKNOWN00', secret: 'not-a-secret' }

describe('the credential environment of each profile', () => {
  it.each([
    ['service', { CLOUD_ACCESS_KEY: UNKNOWN.key, CLOUD_SECRET_KEY: UNKNOWN.secret }],
    ['vault', { AWS_ACCESS_KEY_ID: UNKNOWN.key, AWS_SECRET_ACCESS_KEY: UNKNOWN.secret }],
    ['vault', { AWS_ACCESS_KEY: UNKNOWN.key, AWS_SECRET_KEY: UNKNOWN.secret }],
  ] as const)('the %s profile acts as %j', async (profile, env) => {
    const answer = await resolveWith(profile, env)
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0]).toContain(UNKNOWN_CALLER)
  })

  it.each([
    ['service', { AWS_ACCESS_KEY_ID: UNKNOWN.key, AWS_SECRET_ACCESS_KEY: UNKNOWN.secret, AWS_SESSION_TOKEN: 'x' }],
    ['vault', { CLOUD_ACCESS_KEY: UNKNOWN.key, CLOUD_SECRET_KEY: UNKNOWN.secret, CLOUD_SESSION_TOKEN: 'x' }],
  ] as const)("the %s profile ignores the other profile's names %j", async (profile, env) => {
    expect((await resolveWith(profile, env)).status).toBe(204)
  })

  it('vault: the long names win over the short ones, and AWS_SESSION_TOKEN goes with the keys', async () => {
    // Seeded ids: the same principal created first in a twin emulator has the same keys.
    const twin = getFakeCloud(managementClient().doppel).createPrincipal({ type: 'user', name: 'erin', account_id: ACCOUNT })
    const keys = { AWS_ACCESS_KEY_ID: twin.access_key_id, AWS_SECRET_ACCESS_KEY: twin.secret_access_key }
    const actAsErin = async (env: Record<string, string>) => {
      const api = managementClient({ profile: 'vault', cloudAuth: { env } })
      expect(getFakeCloud(api.doppel).createPrincipal({ type: 'user', name: 'erin', account_id: ACCOUNT }).access_key_id).toBe(twin.access_key_id)
      return api.write('role/r', { bound_iam_principal_arn: `arn:aws:iam::${ACCOUNT}:user/erin` })
    }
    expect((await actAsErin({ ...keys, AWS_ACCESS_KEY: UNKNOWN.key, AWS_SECRET_KEY: UNKNOWN.secret })).status).toBe(204)
    const withToken = await actAsErin({ ...keys, AWS_SESSION_TOKEN: 'not-a-session-token' })
    expect(withToken.status).toBe(400)
    expect(withToken.body.errors[0]).toContain('unable to fetch current caller: ')
  })
})
