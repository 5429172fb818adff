import { describe, expect, it } from 'vitest'
import { managementClient } from './management-client.ts'

const PATHS = [
  'config/tidy/identity-accesslist',
  'config/tidy/identity-whitelist',
  'config/tidy/roletag-denylist',
  'config/tidy/roletag-blacklist',
]

describe('config/tidy/*', () => {
  for (const path of PATHS) {
    it(`${path}: writes "60" and reads 60, then deletes (TestBackend_ConfigTidy*)`, async () => {
      const api = managementClient()
      expect((await api.read(path)).status).toBe(404)
      expect((await api.write(path, { safety_buffer: '60', disable_periodic_tidy: true })).status).toBe(204)
      expect((await api.read(path)).body.data).toStrictEqual({ safety_buffer: 60, disable_periodic_tidy: true })
      expect((await api.remove(path)).status).toBe(204)
      expect((await api.read(path)).status).toBe(404)
    })
  }

  it('defaults safety_buffer to 72h for the access list', async () => {
    const api = managementClient()
    await api.write('config/tidy/identity-accesslist', { disable_periodic_tidy: true })
    expect((await api.read('config/tidy/identity-accesslist')).body.data).toStrictEqual({
      safety_buffer: 259200,
      disable_periodic_tidy: true,
    })
  })

  it('defaults safety_buffer to 72h for the deny list too, as the spec states (the real service: 180 days)', async () => {
    const api = managementClient()
    await api.write('config/tidy/roletag-denylist', {})
    expect((await api.read('config/tidy/roletag-denylist')).body.data.safety_buffer).toBe(259200)
  })

  it('reads durations back as integer seconds and keeps absent fields on update', async () => {
    const api = managementClient()
    await api.write('config/tidy/roletag-denylist', { safety_buffer: '72h', disable_periodic_tidy: true })
    await api.write('config/tidy/roletag-denylist', { safety_buffer: '1h30m' })
    expect((await api.read('config/tidy/roletag-denylist')).body.data).toStrictEqual({
      safety_buffer: 5400,
      disable_periodic_tidy: true,
    })
  })

  it('keeps the two lists apart and shares storage between a name and its deprecated alias', async () => {
    const api = managementClient()
    await api.write('config/tidy/identity-whitelist', { safety_buffer: 10 })
    expect((await api.read('config/tidy/identity-accesslist')).body.data.safety_buffer).toBe(10)
    expect((await api.read('config/tidy/roletag-denylist')).status).toBe(404)
  })
})
