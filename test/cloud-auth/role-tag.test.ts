import { describe, expect, it } from 'vitest'
import { errors, managementClient } from './management-client.ts'

/** The role of the real service's TestBackend_parseAndVerifyRoleTagValue. */
const ROLE = { auth_type: 'ec2', policies: 'p,q,r,s', max_ttl: '120s', role_tag: 'VaultRole', bound_ami_id: 'abcd-123' }
const NONCE = '[A-Za-z0-9+/]{11}='
const HMAC = '[A-Za-z0-9+/]{43}='

async function withRole(role: Record<string, unknown> = ROLE) {
  const api = managementClient()
  expect((await api.write('role/abcd-123', role)).status).toBe(204)
  return api
}

describe('role/:role/tag', () => {
  it('returns the tag key and a tag value carrying the given policies (TestBackend_parseAndVerifyRoleTagValue)', async () => {
    const api = await withRole()
    const answer = await api.write('role/abcd-123/tag', { policies: 'p,q,r,s' })
    expect(answer.status).toBe(200)
    expect(answer.body.data.tag_key).toBe('VaultRole')
    expect(answer.body.data.tag_value).toMatch(new RegExp(`^v1:${NONCE}:r=abcd-123:d=false:m=false:p=p,q,r,s:${HMAC}$`))
    expect(answer.body.warnings).toBeNull()
  })

  it('carries no policies without a body (TestBackend_PathRoleTag)', async () => {
    const api = await withRole()
    const answer = await api.write('role/abcd-123/tag')
    expect(answer.body.data.tag_value).toMatch(new RegExp(`^v1:${NONCE}:r=abcd-123:d=false:m=false:${HMAC}$`))
  })

  it('writes every item in the fixed order, with the lower-cased role name and instance id', async () => {
    const api = await withRole({ ...ROLE, allow_instance_migration: true })
    const answer = await api.write('role/ABCD-123/tag', {
      policies: ' Q,p,q',
      instance_id: 'I-ABC',
      max_ttl: '100s',
      allow_instance_migration: true,
    })
    expect(answer.body.data.tag_value).toMatch(new RegExp(`^v1:${NONCE}:r=abcd-123:d=false:m=true:p=p,q:i=i-abc:t=100:${HMAC}$`))
  })

  it('gives only default for policies given but empty, as the spec states (the real service: the role’s)', async () => {
    const api = await withRole()
    for (const policies of ['', [], ' , ']) {
      const answer = await api.write('role/abcd-123/tag', { policies })
      expect(answer.body.data.tag_value).toMatch(new RegExp(`^v1:${NONCE}:r=abcd-123:d=false:m=false:p=default:${HMAC}$`))
      expect(answer.body.warnings).toBeNull()
    }
  })

  it('makes a new nonce for every tag', async () => {
    const api = await withRole()
    const a = (await api.write('role/abcd-123/tag')).body.data.tag_value as string
    const b = (await api.write('role/abcd-123/tag')).body.data.tag_value as string
    expect(a.split(':')[1]).not.toBe(b.split(':')[1])
    expect(Buffer.from(a.split(':')[1]!, 'base64')).toHaveLength(8)
  })

  it('warns about policies outside the role, migration the role refuses, and max_ttl above the limits', async () => {
    const api = await withRole()
    const answer = await api.write('role/abcd-123/tag', { policies: 'p,z', allow_instance_migration: true, max_ttl: '800h' })
    expect(answer.status).toBe(200)
    expect(answer.body.warnings).toEqual([
      'Policies on the tag are not a subset of the policies set on the role. Login will not be allowed with this tag unless the role policies are updated.',
      'Role does not allow instance migration. Login will not be allowed with this tag unless the role value is updated.',
      'Given max TTL of 2880000 is greater than the mount maximum of 2764800 seconds, and will be capped at login time.',
      'Given max TTL of 2880000 is greater than the role maximum of 120 seconds, and will be capped at login time.',
    ])
    expect(answer.body.data.tag_value).toContain(':t=2880000:')
  })

  it('refuses a missing role, a role without role_tag, and both flags', async () => {
    const api = await withRole()
    expect((await api.write('role/Nope/tag')).body).toEqual(errors('entry not found for role nope'))
    await api.write('role/plain', { auth_type: 'ec2', bound_ami_id: 'a' })
    expect((await api.write('role/plain/tag')).body).toEqual(errors('tag creation is not enabled for this role'))
    expect(
      (await api.write('role/abcd-123/tag', { disallow_reauthentication: true, allow_instance_migration: true })).body,
    ).toEqual(errors('cannot set both disallow_reauthentication and allow_instance_migration'))
  })

  it('refuses a tag value over 255 characters with 400 (real: 500)', async () => {
    const api = await withRole({ ...ROLE, policies: 'x'.repeat(100) + ',' + 'y'.repeat(100) })
    const answer = await api.write('role/abcd-123/tag', { policies: 'x'.repeat(100) + ',' + 'y'.repeat(100) })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual(errors("role tag 'value' exceeding the limit of 255 characters"))
  })

  it('only answers POST and PUT', async () => {
    const api = await withRole()
    expect((await api.read('role/abcd-123/tag')).status).toBe(405)
    expect((await api.call('PUT', 'role/abcd-123/tag', { body: {} })).status).toBe(200)
  })
})
