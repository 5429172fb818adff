import { describe, expect, it } from 'vitest'
import { errors, managementClient } from './management-client.ts'

describe('config/sts/:account_id and config/sts', () => {
  it('stores unvalidated ARNs, reads, lists and deletes (TestBackend_pathStsConfig)', async () => {
    const api = managementClient()
    expect((await api.read('config/sts/account1')).status).toBe(404)
    expect((await api.write('config/sts/account1', { sts_role: 'arn:aws:iam:account1:role/myRole' })).status).toBe(204)
    expect((await api.read('config/sts/account1')).body.data).toStrictEqual({
      sts_role: 'arn:aws:iam:account1:role/myRole',
    })
    await api.write('config/sts/account2', { sts_role: 'arn:aws:iam:account2:role/myRole2', external_id: 'ext-2' })
    expect((await api.read('config/sts/account2')).body.data.external_id).toBe('ext-2')
    expect((await api.list('config/sts')).body.data.keys).toEqual(['account1', 'account2'])
    expect((await api.read('config/sts?list=true')).body.data.keys).toEqual(['account1', 'account2'])
    await api.remove('config/sts/account1')
    await api.remove('config/sts/account2')
    expect((await api.list('config/sts')).status).toBe(404)
  })

  it('needs sts_role on create, keeps it on update, and refuses an empty one', async () => {
    const api = managementClient()
    expect((await api.write('config/sts/1', { external_id: 'x' })).body).toEqual(errors('missing sts role'))
    expect((await api.write('config/sts/1', { sts_role: '' })).body).toEqual(errors('sts role cannot be empty'))
    expect((await api.read('config/sts/1')).status).toBe(404)
    await api.write('config/sts/1', { sts_role: 'arn:aws:iam::1:role/r' })
    expect((await api.write('config/sts/1', { external_id: 'e' })).status).toBe(204)
    expect((await api.read('config/sts/1')).body.data).toStrictEqual({ sts_role: 'arn:aws:iam::1:role/r', external_id: 'e' })
    expect((await api.write('config/sts/1', { sts_role: '' })).body).toEqual(errors('sts role cannot be empty'))
    expect((await api.read('config/sts/1')).body.data.sts_role).toBe('arn:aws:iam::1:role/r')
  })
})
