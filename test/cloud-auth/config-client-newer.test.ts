import { describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'

// config/client's newer Vault fields with the vault profile (docs/reference/cloud-auth.md §3.1), each answer as
// the real server gave it (scripts/real-server.sh); test/real-server/rotation-schedule.test.ts checks the
// schedule parser against Vault's own.
const URL_ = 'http://vault.test/v1/auth/aws/config/client'
const headers = { 'X-Vault-Token': 'root', 'Content-Type': 'application/json' }

function vault() {
  const doppel = createDoppel({ profile: 'vault', cloudAuth: { env: {} } })
  const write = async (body: unknown) => {
    const answer = await doppel.fetch(URL_, { method: 'POST', headers, body: JSON.stringify(body) })
    return { status: answer.status, errors: answer.status === 204 ? undefined : ((await answer.json()) as { errors?: string[] }).errors }
  }
  const read = async () => ((await (await doppel.fetch(URL_, { headers })).json()) as { data: Record<string, unknown> }).data
  return { doppel, write, read }
}

describe('config/client, vault profile: newer fields', () => {
  it('stores role_arn and reads back every newer field, zero where never written, after a restore too', async () => {
    const { doppel, write, read } = vault()
    expect(await write({ access_key: 'AKIA1', role_arn: 'arn:aws:iam::123456789012:role/fed' })).toEqual({ status: 204, errors: undefined })
    expect(await read()).toMatchObject({
      role_arn: 'arn:aws:iam::123456789012:role/fed',
      identity_token_audience: '',
      identity_token_ttl: 0,
      rotation_schedule: '',
      rotation_window: 0,
      rotation_period: 0,
      disable_automated_rotation: false,
    })
    const restored = createDoppel({ profile: 'vault', cloudAuth: { env: {} } })
    restored.restore(JSON.parse(JSON.stringify(doppel.snapshot())))
    const data = ((await (await restored.fetch(URL_, { headers })).json()) as { data: Record<string, unknown> }).data
    expect(data).toEqual(await read())
  })

  it('checks newer fields written alone, answers 204, and keeps them only with a change Vault compares', async () => {
    const { write, read } = vault()
    await write({ access_key: 'AKIA1' })
    expect((await write({ identity_token_ttl: '2h', disable_automated_rotation: true })).status).toBe(204)
    expect(await read()).toMatchObject({ identity_token_ttl: 0, disable_automated_rotation: false })
    expect((await write({ identity_token_ttl: '2h', sts_region: 'us-east-2' })).status).toBe(204)
    expect(await read()).toMatchObject({ identity_token_ttl: 7200, sts_region: 'us-east-2' })
  })

  it.each<[string, unknown, string]>([
    ['a rotation period', { rotation_period: '24h' }, 'error registering rotation job: rotation manager capabilities not supported in Vault community edition'],
    ['a schedule', { rotation_schedule: '*/15 9-17 * jan-MAR mon-fri' }, 'error registering rotation job: rotation manager capabilities not supported in Vault community edition'],
    ['a schedule that does not parse', { rotation_schedule: '1-x * * * *' }, 'failed to parse provided rotation_schedule: failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['a time zone without a space', { rotation_schedule: 'TZ=UTC' }, 'failed to parse provided rotation_schedule: a time zone prefix needs a space after it'],
    ['a schedule and a period', { rotation_schedule: '0 0 * * *', rotation_period: 3600 }, 'mutually exclusive fields rotation_schedule and rotation_period were both specified; only one of them can be provided'],
    ['a window alone', { rotation_window: '1h' }, 'cannot use rotation_window without rotation_schedule'],
    ['a window with a period', { rotation_window: '1h', rotation_period: '1h' }, 'rotation_window does not apply to period'],
    ['an audience beside an access key', { identity_token_audience: 'vault' }, "only one of 'access_key' or 'identity_token_audience' can be set"],
    ['an audience without role_arn', { access_key: '', identity_token_audience: 'vault' }, 'role_arn must be set when identity_token_audience is set'],
    ['an audience', { access_key: '', role_arn: 'arn:aws:iam::123456789012:role/fed', identity_token_audience: 'vault' }, 'plugin workload identity not supported in Vault community edition'],
  ])('refuses %s as the community edition does, and stores nothing', async (_, body, message) => {
    const { write, read } = vault()
    await write({ access_key: 'AKIA1' })
    const before = await read()
    expect(await write(body)).toEqual({ status: 400, errors: [message] })
    expect(await read()).toEqual(before)
  })

  it('passes a write that turns rotation off, or asks for none', async () => {
    const { write } = vault()
    expect((await write({ rotation_period: 0 })).status).toBe(204)
    expect((await write({ disable_automated_rotation: true, rotation_period: '1h', sts_region: 'x' })).status).toBe(204)
  })
})

describe('config/client, service profile', () => {
  it('has no newer fields: ignored when written, absent when read', async () => {
    const doppel = createDoppel({ cloudAuth: { env: {} } })
    const at = 'http://doppel.test/v1/auth/cloud/config/client'
    const sent = { 'X-Service-Token': 'root', 'Content-Type': 'application/json' }
    expect((await doppel.fetch(at, { method: 'POST', headers: sent, body: JSON.stringify({ role_arn: 'arn', rotation_period: '1h' }) })).status).toBe(204)
    const data = ((await (await doppel.fetch(at, { headers: sent })).json()) as { data: Record<string, unknown> }).data
    expect(Object.keys(data).sort()).toEqual(['access_key', 'allowed_sts_header_values', 'endpoint', 'iam_endpoint', 'iam_server_id_header_value', 'max_retries', 'sts_endpoint', 'sts_region', 'use_sts_region_from_client'])
  })
})
