import { describe, expect, it } from 'vitest'
import type { AccessListEntry, DenyListEntry } from '../../src/services/cloud-auth/index.ts'
import { authState } from '../../src/services/cloud-auth/index.ts'
import { managementClient, type ManagementClient } from './management-client.ts'
import { createDoppel } from '../../src/features/doppel/index.ts'

const NOW = Date.parse('2024-05-01T10:00:00Z')
const HOUR = 3_600_000
const YEAR = 365 * 24 * HOUR
const STARTED =
  "Tidy operation successfully started. Any information from the operation will be printed to Vault's server logs."

function accessEntry(instanceId: string, expiration: number): AccessListEntry {
  return {
    instance_id: instanceId,
    role: 'r',
    client_nonce: 'n',
    creation_time: expiration - HOUR,
    last_updated_time: expiration - HOUR,
    expiration_time: expiration,
    pending_time: '2016-04-05T16:26:55Z',
    disallow_reauthentication: false,
  }
}

function denyEntry(tag: string, expiration: number): DenyListEntry {
  return { tag, creation_time: expiration - HOUR, expiration_time: expiration }
}

function seeded(): ManagementClient {
  const api = managementClient()
  const state = authState(api.doppel, 'cloud')
  state.accessList.set(accessEntry('old', NOW - YEAR))
  state.accessList.set(accessEntry('buffered', NOW - 71 * HOUR))
  state.accessList.set(accessEntry('fresh', NOW + HOUR))
  state.denyList.set(denyEntry('v1:old', NOW - YEAR))
  state.denyList.set(denyEntry('v1:buffered', NOW - 71 * HOUR))
  state.denyList.set(denyEntry('v1:fresh', NOW + HOUR))
  // Settle the first periodic tidy, which runs on the first request to the mount.
  authState(api.doppel, 'cloud').nextPeriodicTidyMs = NOW + HOUR
  return api
}

const accessKeys = (api: ManagementClient) => [...authState(api.doppel, 'cloud').accessList.keys()].sort()
const denyKeys = (api: ManagementClient) => [...authState(api.doppel, 'cloud').denyList.keys()].sort()

describe('tidy/identity-accesslist and tidy/roletag-denylist', () => {
  for (const path of ['tidy/identity-accesslist', 'tidy/identity-whitelist']) {
    it(`${path}: removes entries past expiration + 72h before answering 202 (TestBackend_TidyIdentities)`, async () => {
      const api = seeded()
      const answer = await api.write(path, {})
      expect(answer.status).toBe(202)
      expect(answer.body).toMatchObject({ data: null, warnings: [STARTED], auth: null })
      expect(accessKeys(api)).toEqual(['buffered', 'fresh'])
      expect(denyKeys(api)).toEqual(['v1:buffered', 'v1:fresh', 'v1:old'])
    })
  }

  for (const path of ['tidy/roletag-denylist', 'tidy/roletag-blacklist']) {
    it(`${path}: removes deny-list entries past expiration + 72h (TestBackend_TidyRoleTags)`, async () => {
      const api = seeded()
      expect((await api.write(path)).status).toBe(202)
      expect(denyKeys(api)).toEqual(['v1:buffered', 'v1:fresh'])
      expect(accessKeys(api)).toEqual(['buffered', 'fresh', 'old'])
    })
  }

  it("answers with the body the real service renders in the method: mount_type empty, no trailing newline (seen on the real server)", async () => {
    for (const profile of ['service', 'vault'] as const) {
      const doppel = createDoppel({ profile })
      const mount = profile === 'vault' ? 'aws' : 'cloud'
      const token = profile === 'vault' ? 'X-Vault-Token' : 'X-Service-Token'
      const answer = await doppel.fetch(new Request(`http://127.0.0.1:8200/v1/auth/${mount}/tidy/identity-accesslist`, { method: 'POST', headers: { [token]: 'root' } }))
      expect(answer.status).toBe(202)
      const text = await answer.text()
      expect(text.endsWith('}')).toBe(true)
      expect(JSON.parse(text)).toMatchObject({ data: null, warnings: [STARTED], auth: null, mount_type: '' })
    }
    // Every other answer keeps the mount type and the encoder's newline.
    const doppel = createDoppel()
    const read = await doppel.fetch(new Request('http://127.0.0.1:8200/v1/auth/cloud/config/identity', { headers: { 'X-Service-Token': 'root' } }))
    const text = await read.text()
    expect(text.endsWith('}\n')).toBe(true)
    expect(JSON.parse(text).mount_type).toBe('aws')
  })

  it('takes safety_buffer as a duration', async () => {
    const api = seeded()
    await api.write('tidy/roletag-denylist', { safety_buffer: '1h' })
    expect(denyKeys(api)).toEqual(['v1:fresh'])
    await api.write('tidy/identity-accesslist', { safety_buffer: 0 })
    expect(accessKeys(api)).toEqual(['fresh'])
  })

  it('removes nothing else and only answers POST and PUT', async () => {
    const api = seeded()
    await api.write('role/keep', { auth_type: 'ec2', bound_ami_id: 'a' })
    await api.call('PUT', 'tidy/identity-accesslist', { body: {} })
    expect((await api.read('role/keep')).status).toBe(200)
    expect((await api.read('tidy/identity-accesslist')).status).toBe(405)
  })
})

describe('periodic tidy on the emulator clock', () => {
  it('runs on the first request to the mount, with 72h for both lists when not configured (spec; real deny list: 180 days)', async () => {
    const api = managementClient()
    const state = authState(api.doppel, 'cloud')
    state.accessList.set(accessEntry('old', NOW - 73 * HOUR))
    state.denyList.set(denyEntry('v1:old', NOW - 73 * HOUR))
    state.denyList.set(denyEntry('v1:recent', NOW - 71 * HOUR))
    await api.read('config/identity')
    expect(accessKeys(api)).toEqual([])
    expect(denyKeys(api)).toEqual(['v1:recent'])
  })

  it('then runs at most once an hour, lazily on requests', async () => {
    const api = managementClient()
    await api.read('config/identity')
    const state = authState(api.doppel, 'cloud')
    state.denyList.set(denyEntry('v1:a', NOW - 72 * HOUR - 1000))
    await api.read('config/identity')
    expect(denyKeys(api)).toEqual(['v1:a'])
    api.doppel.clock.advance('59m')
    await api.read('config/identity')
    expect(denyKeys(api)).toEqual(['v1:a'])
    api.doppel.clock.advance('1m')
    expect(denyKeys(api)).toEqual(['v1:a'])
    await api.read('config/identity')
    expect(denyKeys(api)).toEqual([])
  })

  it('uses the configured buffers and skips a list whose periodic tidy is disabled', async () => {
    const api = managementClient()
    await api.write('config/tidy/identity-accesslist', { safety_buffer: '1h' })
    await api.write('config/tidy/roletag-denylist', { disable_periodic_tidy: true })
    const state = authState(api.doppel, 'cloud')
    state.accessList.set(accessEntry('a', NOW - 2 * HOUR))
    state.denyList.set(denyEntry('v1:d', NOW - YEAR))
    api.doppel.clock.advance('1h')
    await api.read('config/identity')
    expect(accessKeys(api)).toEqual([])
    expect(denyKeys(api)).toEqual(['v1:d'])
  })

  it('also runs on login requests, but not for refused tokens', async () => {
    const api = managementClient()
    const state = authState(api.doppel, 'cloud')
    state.denyList.set(denyEntry('v1:old', NOW - YEAR))
    await api.read('config/identity', { anonymous: true })
    expect(denyKeys(api)).toEqual(['v1:old'])
    await api.write('login', {}, { anonymous: true })
    expect(denyKeys(api)).toEqual([])
  })

  it('keeps each mount on its own schedule and entries', async () => {
    const api = managementClient({ profile: 'vault' })
    authState(api.doppel, 'aws').denyList.set(denyEntry('v1:old', NOW - YEAR))
    await api.read('config/identity', { mount: 'cloud' })
    expect([...authState(api.doppel, 'aws').denyList.keys()]).toEqual(['v1:old'])
    await api.read('config/identity', { mount: 'aws' })
    expect([...authState(api.doppel, 'aws').denyList.keys()]).toEqual([])
  })
})
