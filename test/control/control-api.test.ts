import { describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'

const base = 'http://doppel.test'

describe('control API', () => {
  it('moves the clock by a duration and to a time', async () => {
    const d = createDoppel({ clock: { start: '2024-05-01T00:00:00Z', frozen: true } })
    let res = await d.fetch(`${base}/_doppel/clock`, { method: 'POST', body: JSON.stringify({ advance: '73h' }) })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ now: '2024-05-04T01:00:00.000Z', frozen: true })
    res = await d.fetch(`${base}/_doppel/clock`, { method: 'POST', body: JSON.stringify({ set: '2030-01-01T00:00:00Z' }) })
    expect((await res.json()).now).toBe('2030-01-01T00:00:00.000Z')
    expect(d.clock.now().toISOString()).toBe('2030-01-01T00:00:00.000Z')
  })

  it('refuses a bad clock body with 400 and leaves the clock alone', async () => {
    const d = createDoppel({ clock: { start: 0, frozen: true } })
    for (const body of ['{', '[]', '{"advance":"soon"}', '{"advance":"-1h"}', '{"set":"yesterday"}', '{}']) {
      const res = await d.fetch(`${base}/_doppel/clock`, { method: 'POST', body })
      expect(res.status, body).toBe(400)
      expect((await res.json()).errors).toHaveLength(1)
    }
    expect(d.clock.nowMs()).toBe(0)
  })

  it('keeps a bounded journal, newest last', async () => {
    const d = createDoppel({ journalLimit: 3 })
    for (let i = 0; i < 5; i++) await d.fetch(`${base}/_doppel/health?i=${i}`)
    const res = await d.fetch(`${base}/_doppel/journal`)
    const body = await res.json()
    expect(body.total).toBe(5)
    expect(body.entries.map((e: { url: string }) => new URL(e.url).search)).toEqual(['?i=2', '?i=3', '?i=4'])
  })

  it('adds, lists, fires and clears faults; a status fault answers instead of the service', async () => {
    const d = createDoppel()
    let res = await d.fetch(`${base}/_doppel/faults`, {
      method: 'POST',
      body: JSON.stringify({ method: 'GET', path: '/v1/auth/cloud/*', status: 503, times: 1 }),
    })
    expect(res.status).toBe(201)
    const { id } = await res.json()
    expect(id).toMatch(/^fault-/)
    expect((await (await d.fetch(`${base}/_doppel/faults`)).json()).faults).toHaveLength(1)
    res = await d.fetch(`${base}/v1/auth/cloud/config/identity`)
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({ errors: ['Vault is sealed'] })
    expect((await (await d.fetch(`${base}/_doppel/faults`)).json()).faults).toHaveLength(0)
  })

  it('a drop fault fails the fetch like a network error', async () => {
    const d = createDoppel()
    await d.fetch(`${base}/_doppel/faults`, { method: 'POST', body: JSON.stringify({ path: '/api/*', drop: true }) })
    await expect(d.fetch(`${base}/api/v2/ping`)).rejects.toThrow(TypeError)
    const del = await d.fetch(`${base}/_doppel/faults`, { method: 'DELETE' })
    expect(del.status).toBe(204)
  })

  it('refuses malformed faults with 400', async () => {
    const d = createDoppel()
    for (const body of ['{"path":"/x"}', '{"path":"/x","status":200}', '{"status":500}', '{"path":"/x","drop":true,"status":500}', 'nope']) {
      const res = await d.fetch(`${base}/_doppel/faults`, { method: 'POST', body })
      expect(res.status, body).toBe(400)
    }
    expect(d.faults.list()).toEqual([])
  })

  it('reset returns to the seeded start', async () => {
    const d = createDoppel({ seed: 7, clock: { start: 0, frozen: true } })
    const before = d.random.uuid()
    d.clock.advance(60)
    const res = await d.fetch(`${base}/_doppel/reset`, { method: 'POST' })
    expect(res.status).toBe(204)
    expect(d.clock.nowMs()).toBe(0)
    expect(d.random.uuid()).toBe(before)
  })
})
