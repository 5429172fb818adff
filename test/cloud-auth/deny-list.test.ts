import { describe, expect, it } from 'vitest'
import { errors, managementClient, type ManagementClient } from './management-client.ts'

const ROLE = { auth_type: 'ec2', policies: 'p,q,r,s', role_tag: 'VaultRole', bound_ami_id: 'abcd-123' }

async function tagged(body: Record<string, unknown> = {}, role = ROLE): Promise<{ api: ManagementClient; tag: string }> {
  const api = managementClient()
  await api.write('role/abcd-123', role)
  const tag = (await api.write('role/abcd-123/tag', body)).body.data.tag_value as string
  return { api, tag }
}

const b64 = (text: string) => Buffer.from(text).toString('base64')
const hours = (h: number) => h * 3_600_000

describe('roletag-denylist/:role_tag and roletag-denylist', () => {
  for (const prefix of ['roletag-denylist/', 'roletag-blacklist/']) {
    it(`${prefix}: denies, reads, deletes (TestBackend_PathBlacklistRoleTag)`, async () => {
      const { api, tag } = await tagged()
      expect((await api.write(prefix + tag)).status).toBe(204)
      const read = await api.read(prefix + tag)
      expect(read.status).toBe(200)
      expect(read.body.data).toStrictEqual({ creation_time: '2024-05-01T10:00:00Z', expiration_time: '2024-06-02T10:00:00Z' })
      expect((await api.remove(prefix + tag)).status).toBe(204)
      expect((await api.read(prefix + tag)).status).toBe(404)
      expect((await api.remove(prefix + tag)).status).toBe(204)
    })
  }

  it('takes the tag base64-encoded on every method, as the spec states', async () => {
    const { api, tag } = await tagged()
    expect((await api.write(`roletag-denylist/${encodeURIComponent(b64(tag))}`)).status).toBe(204)
    expect((await api.read(`roletag-denylist/${encodeURIComponent(tag)}`)).status).toBe(200)
    expect((await api.read(`roletag-denylist/${encodeURIComponent(b64(tag))}`)).status).toBe(200)
    expect((await api.list('roletag-denylist')).body.data.keys).toEqual([tag])
    expect((await api.remove(`roletag-denylist/${encodeURIComponent(b64(tag))}`)).status).toBe(204)
    expect((await api.read(`roletag-denylist/${encodeURIComponent(tag)}`)).status).toBe(404)
  })

  it('sets creation_time once and moves expiration_time on every deny', async () => {
    const { api, tag } = await tagged()
    await api.write(`roletag-denylist/${encodeURIComponent(tag)}`)
    api.doppel.clock.advance('1h0m0.25s')
    await api.write(`roletag-denylist/${encodeURIComponent(tag)}`)
    expect((await api.read(`roletag-denylist/${encodeURIComponent(tag)}`)).body.data).toStrictEqual({
      creation_time: '2024-05-01T10:00:00Z',
      expiration_time: '2024-06-02T11:00:00.25Z',
    })
  })

  it('expires after the longest of the tag’s, the role’s and the mount’s maximum TTL', async () => {
    const { api, tag } = await tagged({ max_ttl: '800h' }, { ...ROLE, token_max_ttl: '900h' } as typeof ROLE)
    await api.write(`roletag-denylist/${encodeURIComponent(tag)}`)
    const expected = new Date(Date.parse('2024-05-01T10:00:00Z') + hours(900)).toISOString().replace('.000', '')
    expect((await api.read(`roletag-denylist/${encodeURIComponent(tag)}`)).body.data.expiration_time).toBe(expected)
    const withTag = await tagged({ max_ttl: '800h' })
    await withTag.api.write(`roletag-denylist/${encodeURIComponent(withTag.tag)}`)
    expect((await withTag.api.read(`roletag-denylist/${encodeURIComponent(withTag.tag)}`)).body.data.expiration_time).toBe(
      new Date(Date.parse('2024-05-01T10:00:00Z') + hours(800)).toISOString().replace('.000', ''),
    )
  })

  it('lists plain tag values ordered by their base64 form; none gives 404', async () => {
    const { api, tag } = await tagged()
    expect((await api.list('roletag-denylist')).status).toBe(404)
    const second = (await api.write('role/abcd-123/tag', { policies: 'p' })).body.data.tag_value as string
    await api.write(`roletag-denylist/${encodeURIComponent(tag)}`)
    await api.write(`roletag-denylist/${encodeURIComponent(second)}`)
    const keys = (await api.list('roletag-denylist/')).body.data.keys as string[]
    expect([...keys].sort()).toEqual([tag, second].sort())
    expect(keys.map(b64)).toEqual(keys.map(b64).sort())
    expect((await api.list('roletag-blacklist')).body.data.keys).toEqual(keys)
  })

  describe('refuses a tag that does not parse or verify with 400 (real: 500), storing nothing', () => {
    const cases: [string, (tag: string) => string, string][] = [
      ['too few parts', () => 'v1:abc:def', 'invalid tag'],
      ['another version', (tag) => tag.replace(/^v1/, 'v2'), 'invalid role tag version'],
      ['an unknown item', (tag) => tag.replace(':d=false', ':x=1:d=false'), 'unrecognized item "x=1" in tag'],
      ['a bad bool', (tag) => tag.replace(':d=false', ':d=maybe'), 'strconv.ParseBool: parsing "maybe": invalid syntax'],
      ['a bad ttl', (tag) => tag.replace(':m=false', ':m=false:t=x'), 'time: invalid duration "xs"'],
      ['no role', (tag) => tag.replace(':r=abcd-123', ''), 'missing role name'],
      ['an unknown role', (tag) => tag.replace(':r=abcd-123', ':r=Other'), 'entry not found for "Other"'],
      ['a tampered item', (tag) => tag.replace(':d=false', ':d=true'), 'role tag signature verification failed'],
      ['a bad HMAC', (tag) => tag.replace(/:[^:]+$/, ':AAAA'), 'role tag signature verification failed'],
      ['an empty nonce', (tag) => tag.replace(/^v1:[^:]+:/, 'v1::'), 'missing nonce'],
    ]
    for (const [name, change, message] of cases) {
      it(name, async () => {
        const { api, tag } = await tagged()
        const before = api.doppel.store.snapshot()
        const answer = await api.write(`roletag-denylist/${encodeURIComponent(change(tag))}`)
        expect(answer.status).toBe(400)
        expect(answer.body).toEqual(errors(message))
        expect(api.doppel.store.snapshot()).toEqual(before)
      })
    }
  })

  it('verifies against the plaintext rebuilt from the parsed items, so reordered items and 0 for false pass', async () => {
    const { api, tag } = await tagged()
    const reordered = tag.replace(':d=false:m=false', ':m=false:d=0')
    expect((await api.write(`roletag-denylist/${encodeURIComponent(reordered)}`)).status).toBe(204)
    expect((await api.list('roletag-denylist')).body.data.keys).toEqual([reordered])
  })

  it('refuses a tag of a role that was deleted and recreated (new HMAC key)', async () => {
    const { api, tag } = await tagged()
    await api.remove('role/abcd-123')
    await api.write('role/abcd-123', ROLE)
    expect((await api.write(`roletag-denylist/${encodeURIComponent(tag)}`)).body).toEqual(errors('role tag signature verification failed'))
  })

  it('accepts tags whose role name is given in another case and keeps them under the exact text', async () => {
    const { api } = await tagged()
    const tag = (await api.write('role/ABCD-123/tag')).body.data.tag_value as string
    expect(tag).toContain(':r=abcd-123:')
    expect((await api.write(`roletag-denylist/${encodeURIComponent(tag)}`)).status).toBe(204)
  })

  it('refuses a write to the empty name as any write to a path ending in "/" (400, before the token check)', async () => {
    const { api } = await tagged()
    const answer = await api.write('roletag-denylist/')
    expect([answer.status, answer.body]).toEqual([400, { errors: ["cannot write to a path ending in '/'"] }])
    expect((await api.list('roletag-denylist')).status).toBe(404)
  })
})
