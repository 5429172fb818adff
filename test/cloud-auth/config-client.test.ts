import { describe, expect, it } from 'vitest'
import { getFakeCloud } from '../../src/services/fake-cloud/index.ts'
import { errors, managementClient } from './management-client.ts'

describe('config/client', () => {
  it('reads 404 before any write, then the written fields without secret_key', async () => {
    const api = managementClient()
    expect((await api.read('config/client')).status).toBe(404)
    expect(
      (
        await api.write('config/client', {
          sts_endpoint: 'https://my-custom-sts-endpoint.example.com',
          sts_region: 'us-east-2',
          iam_server_id_header_value: 'vault_server_identification_314159',
        })
      ).status,
    ).toBe(204)
    const first = await api.read('config/client')
    expect(first.body.data).toStrictEqual({
      access_key: '',
      endpoint: '',
      iam_endpoint: '',
      sts_endpoint: 'https://my-custom-sts-endpoint.example.com',
      sts_region: 'us-east-2',
      use_sts_region_from_client: false,
      iam_server_id_header_value: 'vault_server_identification_314159',
      max_retries: -1,
      allowed_sts_header_values: null,
    })
    await api.write('config/client', {
      sts_endpoint: 'https://my-custom-sts-endpoint2.example.com',
      sts_region: 'us-west-1',
      iam_server_id_header_value: 'vault_server_identification_2718281',
    })
    expect((await api.read('config/client')).body.data).toMatchObject({
      sts_endpoint: 'https://my-custom-sts-endpoint2.example.com',
      sts_region: 'us-west-1',
      iam_server_id_header_value: 'vault_server_identification_2718281',
    })
  })

  it('never returns secret_key and validates nothing beyond types (TestBackend_ConfigClient)', async () => {
    const api = managementClient()
    await api.write('config/client', { access_key: 'AKIAJBRHKV6EVTTNXDHA', secret_key: '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' })
    expect((await api.write('config/client', { access_key: '' })).status).toBe(204)
    expect((await api.write('config/client', { secret_key: '' })).status).toBe(204)
    expect((await api.write('config/client', { endpoint: 'endpointvalue', sts_endpoint: 'not a url' })).status).toBe(204)
    const data = (await api.read('config/client')).body.data
    expect(data).not.toHaveProperty('secret_key')
    expect(data.endpoint).toBe('endpointvalue')
    expect(data.access_key).toBe('')
  })

  it('keeps fields on update, canonicalises allowed header names, and reads an empty list as null', async () => {
    const api = managementClient()
    await api.write('config/client', { max_retries: 5, use_sts_region_from_client: true, allowed_sts_header_values: 'x-amz-mallory-header, X-AMZ-FOO' })
    await api.write('config/client', { endpoint: 'e' })
    const data = (await api.read('config/client')).body.data
    expect(data).toMatchObject({ max_retries: 5, use_sts_region_from_client: true, endpoint: 'e' })
    expect(data.allowed_sts_header_values).toEqual(['X-Amz-Mallory-Header', 'X-Amz-Foo'])
    await api.write('config/client', { allowed_sts_header_values: [] })
    expect((await api.read('config/client')).body.data.allowed_sts_header_values).toBeNull()
  })

  it('deletes with 204, also when nothing is configured', async () => {
    const api = managementClient()
    expect((await api.remove('config/client')).status).toBe(204)
    await api.write('config/client', { endpoint: 'e' })
    expect((await api.remove('config/client')).status).toBe(204)
    expect((await api.read('config/client')).status).toBe(404)
  })
})

describe('config/rotate-root', () => {
  it('refuses when config/client or one of its keys is unset', async () => {
    const api = managementClient()
    expect((await api.write('config/rotate-root')).body).toEqual(errors("can't update client config because it's unset"))
    await api.write('config/client', { secret_key: 's' })
    expect((await api.write('config/rotate-root')).body).toEqual(errors("can't update access_key because it's unset"))
    await api.write('config/client', { access_key: 'a', secret_key: '' })
    expect((await api.write('config/rotate-root')).body).toEqual(errors("can't update secret_key because it's unset"))
  })

  it('creates a new key for the same user, stores it and deletes the old one (TestPathConfigRotateRoot)', async () => {
    const api = managementClient()
    const cloud = getFakeCloud(api.doppel)
    const ellen = cloud.createPrincipal({ type: 'user', name: 'ellen' })
    const old = { accessKeyId: ellen.access_key_id, secretAccessKey: ellen.secret_access_key }
    await api.write('config/client', { access_key: old.accessKeyId, secret_key: old.secretAccessKey })
    const answer = await api.write('config/rotate-root')
    expect(answer.status).toBe(200)
    const newKey: string = answer.body.data.access_key
    expect(newKey).toMatch(/^AKIA[A-Z2-7]{16}$/)
    expect(newKey).not.toBe(old.accessKeyId)
    expect((await api.read('config/client')).body.data.access_key).toBe(newKey)
    expect(() => cloud.getCallerIdentity(old)).toThrow(/security token included in the request is invalid/)
    // The stored secret works: rotating again succeeds with the new pair.
    const again = await api.write('config/rotate-root')
    expect(again.status).toBe(200)
    expect(again.body.data.access_key).not.toBe(newKey)
  })

  it('fails with the provider error when the user already has two keys, and keeps the config (400, real: 500)', async () => {
    const api = managementClient()
    const cloud = getFakeCloud(api.doppel)
    const ellen = cloud.createPrincipal({ type: 'user', name: 'ellen' })
    const old = { accessKeyId: ellen.access_key_id, secretAccessKey: ellen.secret_access_key }
    cloud.createAccessKey(old, 'ellen')
    await api.write('config/client', { access_key: old.accessKeyId, secret_key: old.secretAccessKey })
    const before = api.doppel.store.snapshot()
    const answer = await api.write('config/rotate-root')
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0]).toMatch(
      /^error calling CreateAccessKey: LimitExceeded: Cannot exceed quota for AccessKeysPerUser: 2\n\tstatus code: 409, request id: [0-9a-f-]{36}$/,
    )
    expect(api.doppel.store.snapshot()).toEqual(before)
  })

  it('fails on GetUser with keys the provider does not know', async () => {
    const api = managementClient()
    await api.write('config/client', { access_key: 'AKIANOTAKEY', secret_key: 'x' })
    const answer = await api.write('config/rotate-root')
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0]).toMatch(
      /^error calling GetUser: InvalidClientTokenId: The security token included in the request is invalid\.\n\tstatus code: 403, request id: /,
    )
  })
})
