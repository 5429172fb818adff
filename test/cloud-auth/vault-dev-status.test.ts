import { describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/index.ts'

describe('sys/health and sys/seal-status', () => {
  it('the vault profile answers them unauthenticated, as a Vault dev server: initialised, unsealed, active', async () => {
    const doppel = createDoppel({ profile: 'vault', seed: 1 })
    const health = await doppel.fetch('http://vault.test/v1/sys/health')
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({ initialized: true, sealed: false, standby: false, replication_dr_mode: 'disabled', version: '1.21.4' })
    const seal = await doppel.fetch('http://vault.test/v1/sys/seal-status')
    expect(seal.status).toBe(200)
    expect(await seal.json()).toMatchObject({ type: 'shamir', initialized: true, sealed: false, t: 1, n: 1, progress: 0 })
  })

  it("refuses another method with 405, as Vault's handlers do", async () => {
    const doppel = createDoppel({ profile: 'vault', seed: 1 })
    for (const path of ['sys/health', 'sys/seal-status']) {
      const answer = await doppel.fetch(`http://vault.test/v1/${path}`, { method: 'POST', body: '{}' })
      expect(answer.status).toBe(405)
    }
  })

  it('the service profile has no such paths', async () => {
    const doppel = createDoppel({ seed: 1 })
    expect((await doppel.fetch('http://svc.test/v1/sys/health')).status).toBe(403)
  })
})
