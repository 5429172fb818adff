import { beforeEach, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'

// GET /_doppel/cloud/instances and /principals: what exists, in creation order; no secret key in a listing.
const doppel = createDoppel({ seed: 4, clock: { start: '2024-03-05T09:41:27Z', frozen: true } })
beforeEach(() => doppel.reset())

const call = async (method: string, path: string, body?: unknown) => {
  const response = await doppel.fetch(`http://doppel.test/_doppel/cloud/${path}`, {
    method,
    ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  })
  return { status: response.status, json: await response.json() }
}

describe('inventory listings', () => {
  it('lists nothing on a fresh emulator', async () => {
    expect(await call('GET', 'instances')).toEqual({ status: 200, json: { instances: [] } })
  })

  it('lists instances as GET instances/<id> shows each, in creation order', async () => {
    const a = (await call('POST', 'instances', { ami_id: 'ami-0abc1234' })).json
    const b = (await call('POST', 'instances', { iam_role_name: 'web' })).json
    const { json } = await call('GET', 'instances')
    expect(json.instances).toEqual([a, b])
    expect((await call('GET', `instances/${b.instance_id}`)).json).toEqual(b)
  })

  it('lists users and roles (also those made for instance profiles) without their keys', async () => {
    const alice = (await call('POST', 'principals', { type: 'user', name: 'alice', path: '/team/' })).json
    await call('POST', 'instances', { iam_role_name: 'web' })
    const { json } = await call('GET', 'principals/')
    expect(json.principals.map((p: { arn: string }) => p.arn)).toEqual([alice.arn, expect.stringMatching(/:role\/web$/)])
    expect(json.principals[0]).toEqual({
      type: 'user', name: 'alice', account_id: alice.account_id, path: '/team/', arn: alice.arn, unique_id: alice.unique_id,
      create_date: '2024-03-05T09:41:27Z',
    })
    expect(JSON.stringify(json)).not.toContain(alice.secret_access_key)
    expect(JSON.stringify(json)).not.toContain('access_key')
  })
})
