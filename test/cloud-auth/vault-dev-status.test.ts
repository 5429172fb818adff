import { describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/index.ts'

describe('sys/health, sys/seal-status and sys/leader', () => {
  it('the vault profile answers them unauthenticated, as a Vault dev server: initialised, unsealed, active', async () => {
    const doppel = createDoppel({ profile: 'vault', seed: 1 })
    const health = await doppel.fetch('http://vault.test/v1/sys/health')
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({ initialized: true, sealed: false, standby: false, replication_dr_mode: 'disabled', version: '1.21.4' })
    const seal = await doppel.fetch('http://vault.test/v1/sys/seal-status')
    expect(seal.status).toBe(200)
    expect(await seal.json()).toMatchObject({ type: 'shamir', initialized: true, sealed: false, t: 1, n: 1, progress: 0 })
  })

  it('names the cluster as a dev server does at start, the same in both answers and for the instance', async () => {
    const doppel = createDoppel({ profile: 'vault', seed: 1 })
    const health = await (await doppel.fetch('http://vault.test/v1/sys/health')).json()
    const seal = await (await doppel.fetch('http://vault.test/v1/sys/seal-status')).json()
    expect(health.cluster_name).toMatch(/^vault-cluster-[0-9a-f]{8}$/)
    expect(health.cluster_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    expect([seal.cluster_name, seal.cluster_id]).toEqual([health.cluster_name, health.cluster_id])
    // Vault's field order: the cluster after `enterprise` (health) and after `migration` (seal status).
    expect(Object.keys(health).slice(8, 12)).toEqual(['enterprise', 'cluster_name', 'cluster_id', 'echo_duration_ms'])
    expect(Object.keys(seal).slice(9, 13)).toEqual(['migration', 'cluster_name', 'cluster_id', 'recovery_seal'])
    await doppel.reset()
    expect((await (await doppel.fetch('http://vault.test/v1/sys/health')).json()).cluster_id).toBe(health.cluster_id)
    // Repeatable with the seed; another seed names another cluster.
    const other = createDoppel({ profile: 'vault', seed: 2 })
    expect((await (await other.fetch('http://vault.test/v1/sys/health')).json()).cluster_id).not.toBe(health.cluster_id)
  })

  it("reads sys/health's parameters as Vault does: activecode sets the status, a bad value is 400, HEAD answers the status alone", async () => {
    const doppel = createDoppel({ profile: 'vault', seed: 1 })
    const status = (query: string, method = 'GET') => doppel.fetch(`http://vault.test/v1/sys/health${query}`, { method }).then((r) => r.status)
    expect(await status('?activecode=299')).toBe(299)
    expect(await status('?activecode=%2B204&standbyok=true&sealedcode=200')).toBe(204)
    // A + in a query is a space, which Go's Atoi refuses.
    expect(await status('?activecode=+204')).toBe(400)
    expect(await status('?standbycode=200&perfstandbyok=1')).toBe(200)
    expect(await status('?activecode=150')).toBe(200)
    for (const bad of ['?activecode=abc', '?activecode=', '?sealedcode=1.5', '?standbyok=yes', '?activecode=99', '?activecode=1000', '?activecode=-200']) {
      const answer = await doppel.fetch(`http://vault.test/v1/sys/health${bad}`)
      expect(answer.status, bad).toBe(400)
      expect(await answer.json()).toEqual({ errors: [] })
      expect(doppel.explain(answer)?.rule, bad).toMatch(/^sys\/health /)
    }
    const head = await doppel.fetch('http://vault.test/v1/sys/health?activecode=299', { method: 'HEAD' })
    expect(head.status).toBe(299)
    expect(head.headers.get('content-type')).toBe('application/json')
    expect(await head.text()).toBe('')
  })

  it('answers sys/leader without a token, as a dev server without HA: no leader, the zero active time', async () => {
    const doppel = createDoppel({ profile: 'vault', seed: 1 })
    const leader = await doppel.fetch('http://vault.test/v1/sys/leader')
    expect(leader.status).toBe(200)
    expect(await leader.text()).toBe(
      '{"ha_enabled":false,"is_self":false,"active_time":"0001-01-01T00:00:00Z","leader_address":"","leader_cluster_address":"","performance_standby":false,"performance_standby_last_remote_wal":0}\n',
    )
  })

  it("refuses another method with 405, as Vault's handlers do", async () => {
    const doppel = createDoppel({ profile: 'vault', seed: 1 })
    for (const path of ['sys/health', 'sys/seal-status', 'sys/leader']) {
      const answer = await doppel.fetch(`http://vault.test/v1/${path}`, { method: 'POST', body: '{}' })
      expect(answer.status).toBe(405)
    }
  })

  it('the service profile has no such paths', async () => {
    const doppel = createDoppel({ seed: 1 })
    for (const path of ['sys/health', 'sys/seal-status', 'sys/leader']) expect((await doppel.fetch(`http://svc.test/v1/${path}`)).status).toBe(403)
  })
})
