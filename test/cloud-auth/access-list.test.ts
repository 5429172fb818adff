import { describe, expect, it } from 'vitest'
import type { AccessListEntry } from '../../src/services/cloud-auth/index.ts'
import { authState } from '../../src/services/cloud-auth/index.ts'
import { managementClient, type ManagementClient } from './management-client.ts'

const NOW = Date.parse('2024-05-01T10:00:00Z')

/** Access-list entries are written by login; these tests put them in the mount's state directly. */
function entry(instanceId: string, overrides: Partial<AccessListEntry> = {}): AccessListEntry {
  return {
    instance_id: instanceId,
    role: 'MyRole',
    client_nonce: 'nonce-1',
    creation_time: NOW,
    last_updated_time: NOW + 1500,
    expiration_time: NOW + 2764800_000,
    pending_time: '2016-04-05T16:26:55Z',
    disallow_reauthentication: false,
    ...overrides,
  }
}

async function withEntries(...entries: AccessListEntry[]): Promise<ManagementClient> {
  const api = managementClient()
  const state = authState(api.doppel, 'cloud')
  for (const item of entries) state.accessList.set(item)
  return api
}

describe('identity-accesslist/:instance_id and identity-accesslist', () => {
  for (const prefix of ['identity-accesslist/', 'identity-whitelist/']) {
    it(`${prefix}: reads an entry in the real service's shape`, async () => {
      const api = await withEntries(entry('i-0123456789abcdef0'))
      const answer = await api.read(`${prefix}i-0123456789abcdef0`)
      expect(answer.status).toBe(200)
      expect(answer.body.data).toStrictEqual({
        role: 'MyRole',
        client_nonce: 'nonce-1',
        creation_time: '2024-05-01T10:00:00Z',
        disallow_reauthentication: false,
        pending_time: '2016-04-05T16:26:55Z',
        expiration_time: '2024-06-02T10:00:00Z',
        last_updated_time: '2024-05-01T10:00:01.5Z',
      })
    })
  }

  it('uses the instance id as given (no lower-casing) and answers 404 for a missing entry', async () => {
    const api = await withEntries(entry('i-ABC'))
    expect((await api.read('identity-accesslist/i-ABC')).status).toBe(200)
    expect((await api.read('identity-accesslist/i-abc')).status).toBe(404)
  })

  it('deletes with 204, also when missing', async () => {
    const api = await withEntries(entry('i-1'))
    expect((await api.remove('identity-accesslist/i-1')).status).toBe(204)
    expect((await api.read('identity-accesslist/i-1')).status).toBe(404)
    expect((await api.remove('identity-whitelist/i-1')).status).toBe(204)
  })

  it('lists instance ids sorted; none gives 404', async () => {
    const empty = managementClient()
    expect((await empty.list('identity-accesslist')).status).toBe(404)
    const api = await withEntries(entry('i-b'), entry('i-a'), entry('i-c'))
    expect((await api.list('identity-accesslist')).body.data.keys).toEqual(['i-a', 'i-b', 'i-c'])
    expect((await api.read('identity-whitelist/?list=true')).body.data.keys).toEqual(['i-a', 'i-b', 'i-c'])
  })

  it('has no write (405)', async () => {
    const api = await withEntries(entry('i-1'))
    expect((await api.write('identity-accesslist/i-1', {})).status).toBe(405)
  })
})
