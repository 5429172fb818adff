import { describe, expect, it } from 'vitest'
import { loginWorld } from './login-setup.ts'

// CA-TL-04 (docs/reference/cloud-auth.md §3.8, docs/reference/cloud-auth.md §4 G): a tag restricted to an instance (i=<id>) lets that instance
// log in. In process: a scenario cannot create an instance whose tag names its own id on a shared server.
describe('role tag restricted to an instance', () => {
  it('logs in the instance it names and refuses another carrying the same tag', async () => {
    const world = loginWorld()
    const id = 'i-0a1b2c3d4e5f60718'
    await world.api('POST', 'role/tagged', { auth_type: 'ec2', bound_account_id: '123456789012', role_tag: 'VaultRole', policies: 'p' })
    const tag = (await world.api('POST', 'role/tagged/tag', { instance_id: id })).body.data.tag_value as string
    expect(tag).toContain(`:i=${id}:`)
    const own = world.cloud.createInstance({ instance_id: id, account_id: '123456789012', tags: { VaultRole: tag } })
    const other = world.cloud.createInstance({ account_id: '123456789012', tags: { VaultRole: tag } })
    const login = (instanceId: string) =>
      world.login({ role: 'tagged', pkcs7: world.cloud.identityDocument(instanceId, 'rsa2048').replace(/\n/g, ''), nonce: 'n' })
    expect((await login(own.instance_id)).status).toBe(200)
    const refused = await login(other.instance_id)
    expect(refused.status).toBe(400)
  })
})
