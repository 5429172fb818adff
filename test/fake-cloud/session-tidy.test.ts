import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import type { AwsCredentials, Principal } from '../../src/services/fake-cloud/index.ts'
import { startServer, type TestServer } from './helpers.ts'

// STS sessions are tidied on the emulator clock (the access-key collection does not grow without bound), and a
// request still presenting an expired session's token is told ExpiredToken, as AWS tells it, however long ago
// the session ended. Real SDK v3 STS client against a node:http server.
const doppel = createDoppel({ seed: 17, clock: { start: '2024-03-05T09:41:27Z', frozen: true } })
const cloud = doppel.cloud
let server: TestServer
beforeAll(async () => {
  server = await startServer(doppel)
})
afterAll(() => server.close())
beforeEach(() => doppel.reset())

/** An SDK client whose clock is the emulator's (as the SDK's own skew correction would make it). */
const sts = (credentials: AwsCredentials) =>
  new STSClient({
    region: 'us-east-1',
    credentials,
    endpoint: `${server.url}/_doppel/cloud/sts`,
    maxAttempts: 1,
    systemClockOffset: doppel.clock.nowMs() - Date.now(),
  })
const creds = (p: Principal): AwsCredentials => ({ accessKeyId: p.access_key_id, secretAccessKey: p.secret_access_key, sessionToken: p.session_token })
const whoAmI = (credentials: AwsCredentials) => sts(credentials).send(new GetCallerIdentityCommand({})).catch((e: unknown) => e)

/** The access keys and sessions the fake cloud holds, as `/_doppel/state` shows them. */
async function storedKeys(): Promise<string[]> {
  const state = (await (await doppel.fetch('http://doppel.test/_doppel/state')).json()) as Record<string, Record<string, unknown>>
  return Object.keys(state['fake-cloud.access-keys'] ?? {})
}

const EXPIRED = { name: 'ExpiredToken', message: 'The security token included in the request is expired', $metadata: { httpStatusCode: 403 } }
const INVALID = { name: 'InvalidClientTokenId', message: 'The security token included in the request is invalid.', $metadata: { httpStatusCode: 403 } }

describe('expired STS sessions', () => {
  it('are removed when the clock moves past their expiry, and still answer ExpiredToken, even a year on', async () => {
    const user = cloud.createPrincipal({ type: 'user', name: 'alice' })
    cloud.createPrincipal({ type: 'role', name: 'deployer' })
    const assumed = await sts(creds(user)).send(new AssumeRoleCommand({ RoleArn: 'arn:aws:iam::123456789012:role/deployer', RoleSessionName: 's1', DurationSeconds: 900 }))
    const session = { accessKeyId: assumed.Credentials!.AccessKeyId!, secretAccessKey: assumed.Credentials!.SecretAccessKey!, sessionToken: assumed.Credentials!.SessionToken! }
    expect(await storedKeys()).toContain(session.accessKeyId)
    expect(await whoAmI(session)).toMatchObject({ Arn: 'arn:aws:sts::123456789012:assumed-role/deployer/s1' })

    doppel.clock.advance('15m')
    expect(await storedKeys()).not.toContain(session.accessKeyId)
    expect(await storedKeys()).toContain(user.access_key_id)
    expect(await whoAmI(session)).toMatchObject(EXPIRED)
    doppel.clock.advance('365d')
    expect(await whoAmI(session)).toMatchObject(EXPIRED)
  })

  it('a token that is not the session’s own stays InvalidClientTokenId after the tidy', async () => {
    const role = cloud.createPrincipal({ type: 'role', name: 'deployer', max_session_duration: 3600 })
    const other = cloud.createPrincipal({ type: 'role', name: 'other' })
    doppel.clock.advance('2h')
    expect(await storedKeys()).toEqual([])
    expect(await whoAmI(creds(role))).toMatchObject(EXPIRED)
    // Another session's token, a token whose stamped expiry was altered, garbage, none at all.
    const token = Buffer.from(role.session_token!.slice(16), 'base64')
    token[7]! ^= 1
    const altered = role.session_token!.slice(0, 16) + token.toString('base64')
    for (const sessionToken of [other.session_token, altered, 'IQoJb3JpZ2luX2Vjgarbage', undefined]) {
      expect(await whoAmI({ ...creds(role), sessionToken }), String(sessionToken).slice(0, 30)).toMatchObject(INVALID)
    }
  })

  it('a live session of a deleted role is still InvalidClientTokenId', async () => {
    const role = cloud.createPrincipal({ type: 'role', name: 'deployer' })
    cloud.deletePrincipal(role.arn)
    expect(await whoAmI(creds(role))).toMatchObject(INVALID)
  })

  it('with a running clock (no clock moves), issuing a session tidies the expired ones first', async () => {
    const running = createDoppel({ seed: 17 })
    const roles = Array.from({ length: 5 }, (_, i) => running.cloud.createPrincipal({ type: 'role', name: `r${i}` }))
    const keys = () => Object.keys(running.store.snapshot()['fake-cloud.access-keys'] ?? {})
    expect(keys()).toHaveLength(5)
    // Time passes without a clock move: only the next issue of a session notices.
    const realNow = Date.now
    Date.now = () => realNow() + 2 * 3600_000
    try {
      expect(keys()).toHaveLength(5)
      const fresh = running.cloud.createPrincipal({ type: 'role', name: 'fresh' })
      expect(keys()).toEqual([fresh.access_key_id])
      expect(() => running.cloud.getCallerIdentity(creds(roles[0]!))).toThrow(expect.objectContaining({ code: 'ExpiredToken', status: 403 }))
    } finally {
      Date.now = realNow
    }
  })

  it('sessions restored from a snapshot are tidied too', async () => {
    const role = cloud.createPrincipal({ type: 'role', name: 'deployer' })
    const restored = createDoppel({ seed: 17 })
    restored.restore(JSON.parse(JSON.stringify(doppel.snapshot())))
    expect(Object.keys(restored.store.snapshot()['fake-cloud.access-keys']!)).toEqual([role.access_key_id])
    restored.clock.advance('1h')
    expect(restored.store.snapshot()['fake-cloud.access-keys'] ?? {}).toEqual({})
    expect(() => restored.cloud.getCallerIdentity(creds(role))).toThrow(expect.objectContaining({ code: 'ExpiredToken', status: 403 }))
  })

  it('the IMDS role credentials are issued again once their session is tidied', async () => {
    const instance = cloud.createInstance({ iam_role_name: 'web' })
    const read = async () => JSON.parse(await (await doppel.fetch(`http://doppel.test/_doppel/cloud/imds/${instance.instance_id}/latest/meta-data/iam/security-credentials/web`)).text())
    const first = await read()
    doppel.clock.advance('7h')
    expect(await storedKeys()).not.toContain(first.AccessKeyId)
    const second = await read()
    expect(second.AccessKeyId).not.toBe(first.AccessKeyId)
    expect(await whoAmI({ accessKeyId: second.AccessKeyId, secretAccessKey: second.SecretAccessKey, sessionToken: second.Token })).toMatchObject({
      Arn: `arn:aws:sts::123456789012:assumed-role/web/${instance.instance_id}`,
    })
  })
})
