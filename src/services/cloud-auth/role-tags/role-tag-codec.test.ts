import { createHmac } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseRoleTag, roleTagPlaintext, RoleTagError, signRoleTag, type RoleTagContent } from './role-tag-codec.ts'

const TAG: RoleTagContent = {
  version: 'v1',
  nonce: 'CUVXaKGGFoY=',
  role: 'abcd-123',
  policies: ['p', 'q'],
  instance_id: 'i-1',
  max_ttl: 200,
  disallow_reauthentication: false,
  allow_instance_migration: true,
}

describe('role tags (docs/reference/cloud-auth.md §3.8)', () => {
  it('writes the items in the fixed order and only the optional ones that are set', () => {
    expect(roleTagPlaintext(TAG)).toBe('v1:CUVXaKGGFoY=:r=abcd-123:d=false:m=true:p=p,q:i=i-1:t=200')
    expect(roleTagPlaintext({ ...TAG, policies: [], instance_id: '', max_ttl: 0 })).toBe('v1:CUVXaKGGFoY=:r=abcd-123:d=false:m=true')
    expect(() => roleTagPlaintext({ ...TAG, nonce: '' })).toThrow('missing nonce')
    expect(() => roleTagPlaintext({ ...TAG, version: '' })).toThrow('missing version')
    expect(() => roleTagPlaintext({ ...TAG, role: '' })).toThrow('missing role')
  })

  it('signs with HMAC-SHA256 of the plaintext, keyed by the role’s hmac_key text', () => {
    const plaintext = roleTagPlaintext(TAG)
    const hmac = createHmac('sha256', Buffer.from('key', 'utf8')).update(plaintext, 'utf8').digest('base64')
    expect(signRoleTag(TAG, 'key')).toBe(`${plaintext}:${hmac}`)
    expect(hmac).toHaveLength(44)
  })

  it('parses back what it signs (TestBackend_CreateParseVerifyRoleTag)', () => {
    const parsed = parseRoleTag(signRoleTag(TAG, 'key'))
    expect(parsed).toMatchObject(TAG)
    expect(parsed.hmac).toHaveLength(44)
  })

  it('refuses malformed tags with the real service’s texts', () => {
    expect(() => parseRoleTag('v1:a:b')).toThrow(new RoleTagError('invalid tag'))
    expect(() => parseRoleTag('v2:a:r=x:h')).toThrow('invalid role tag version')
    expect(() => parseRoleTag('v1:a:z=1:h')).toThrow('unrecognized item "z=1" in tag')
    expect(() => parseRoleTag('v1:a:t=1x:h')).toThrow('time: unknown unit "xs" in duration "1xs"')
  })

  it('round-trips any tag content', () => {
    const text = fc.stringMatching(/^[a-z0-9-]{1,12}$/)
    fc.assert(
      fc.property(
        text,
        fc.array(text, { maxLength: 3 }),
        fc.option(text, { nil: '' }),
        fc.nat(10_000_000),
        fc.boolean(),
        fc.boolean(),
        (role, policies, instanceId, maxTtl, d, m) => {
          const tag = { ...TAG, role, policies, instance_id: instanceId, max_ttl: maxTtl, disallow_reauthentication: d, allow_instance_migration: m }
          expect(parseRoleTag(signRoleTag(tag, 'k'))).toMatchObject(tag)
        },
      ),
    )
  })

  it('throws only RoleTagError for any text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          parseRoleTag(text)
        } catch (error) {
          expect(error).toBeInstanceOf(RoleTagError)
        }
      }),
    )
  })
})
