import { describe, expect, it } from 'vitest'
import { createDoppel, isDoppelError, JournalVerifyError } from '../../src/index.ts'
import { BASE } from '../cloud-auth/login-setup.ts'

// journal.count and journal.verify: WireMock's verify over the journal, through the public surface.

const root = { 'X-Service-Token': 'root', 'Content-Type': 'application/json' }

async function world() {
  const doppel = createDoppel({ seed: 1, journalLimit: 3 })
  await doppel.fetch(`${BASE}/v1/auth/cloud/role/web`, { method: 'POST', headers: root, body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-1' }) })
  await doppel.fetch(`${BASE}/v1/auth/cloud/role/api`, { method: 'POST', headers: root, body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-2' }) })
  await doppel.fetch(`${BASE}/v1/auth/cloud/roles?list=true`, { headers: root })
  return doppel
}

describe('journal.count', () => {
  it('counts the held requests every given field matches', async () => {
    const doppel = await world()
    expect(doppel.journal.count()).toBe(3)
    expect(doppel.journal.count({ method: 'post', path: '/v1/auth/cloud/role/:name' })).toBe(2)
    expect(doppel.journal.count({ path: '/v1/auth/cloud/roles' })).toBe(1)
    expect(doppel.journal.count({ service: 'cloud-auth', status: 200 })).toBe(1)
    expect(doppel.journal.count({ status: 204 })).toBe(2)
    expect(doppel.journal.count({ path: `${BASE}/v1/auth/cloud/*` })).toBe(3)
    expect(doppel.journal.count({ service: 'registry' })).toBe(0)
  })

  it('counts only what the bounded journal still holds', async () => {
    const doppel = await world()
    await doppel.fetch(`${BASE}/v1/auth/cloud/roles?list=true`, { headers: root })
    expect(doppel.journal.count({ method: 'POST' })).toBe(1)
  })
})

describe('journal.verify', () => {
  it('passes on at least one match, or on exactly the count given', async () => {
    const doppel = await world()
    expect(() => doppel.journal.verify({ method: 'POST' })).not.toThrow()
    expect(() => doppel.journal.verify({ method: 'POST' }, 2)).not.toThrow()
    expect(() => doppel.journal.verify({ service: 'registry' }, 0)).not.toThrow()
  })

  it('fails with the match, the count and the requests the journal holds', async () => {
    const doppel = await world()
    let thrown: unknown
    try {
      doppel.journal.verify({ method: 'DELETE', path: '/v1/auth/cloud/role/web' }, 1)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(JournalVerifyError)
    expect(isDoppelError(thrown, 'DOPPEL_VERIFY_FAILED')).toBe(true)
    expect((thrown as Error).message).toBe(
      [
        'Expected exactly 1 request matching DELETE /v1/auth/cloud/role/web, saw 0. The journal holds 3:',
        '  POST /v1/auth/cloud/role/web → 204 (cloud-auth)',
        '  POST /v1/auth/cloud/role/api → 204 (cloud-auth)',
        '  GET /v1/auth/cloud/roles → 200 (cloud-auth)',
      ].join('\n'),
    )
    expect(() => doppel.journal.verify({ method: 'POST' }, 3)).toThrow('Expected exactly 3 requests matching POST any path, saw 2.')
    expect(() => createDoppel().journal.verify({ service: 'registry', status: 404 })).toThrow(
      'Expected at least 1 request matching any method any path (service registry, status 404), saw 0. The journal holds no requests.',
    )
  })
})
