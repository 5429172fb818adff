import { describe, expect, it } from 'vitest'
import { createDoppel, TenantRegistry } from '../../src/index.ts'

const ROOT = { 'X-Service-Token': 'root' }

describe('snapshots per tenant', () => {
  it('each tenant snapshots and restores on its own, leaving the root and the other tenants alone', async () => {
    const root = createDoppel({ seed: 1 })
    const tenants = new TenantRegistry(root)
    const send = (path: string, init: RequestInit = {}) => tenants.handle(new Request(`http://doppel.test${path}`, { ...init, headers: { ...ROOT, ...init.headers } }))
    const role = JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-0abc1234' })
    expect((await send('/t/job-a/v1/auth/cloud/role/web', { method: 'POST', body: role })).status).toBe(204)
    const snapshot = await (await send('/t/job-a/_doppel/snapshot')).text()
    expect((await send('/t/job-b/_doppel/snapshot', { method: 'PUT', body: snapshot })).status).toBe(204)
    expect((await send('/t/job-b/v1/auth/cloud/role/web')).status).toBe(200)
    expect((await send('/v1/auth/cloud/role/web')).status).toBe(404)
    expect((await send('/t/job-c/v1/auth/cloud/role/web')).status).toBe(404)
    const rootSnapshot = (await (await send('/_doppel/snapshot')).json()) as { domains: Record<string, unknown> }
    expect(rootSnapshot.domains.tokens).toBeUndefined()
    expect(JSON.stringify(rootSnapshot)).not.toContain('ami-0abc1234')
  })
})
