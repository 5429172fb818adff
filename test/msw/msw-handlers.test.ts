import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { createHandlers } from '../../src/faces/msw/index.ts'

describe('MSW handlers', () => {
  const a = createDoppel({ seed: 1 })
  const b = createDoppel({ seed: 2 })
  const server = setupServer(...createHandlers(a, { baseUrl: 'http://a.doppel.test' }), ...createHandlers(b, { baseUrl: 'http://b.doppel.test', cloud: false }))
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
  afterAll(() => server.close())

  it('answers plain fetch calls through the emulator, each origin its own instance', async () => {
    await fetch('http://a.doppel.test/_doppel/clock', { method: 'POST', body: JSON.stringify({ advance: '2h' }) })
    const clockA = await (await fetch('http://a.doppel.test/_doppel/clock')).json()
    const clockB = await (await fetch('http://b.doppel.test/_doppel/clock')).json()
    expect(Date.parse(clockA.now) - Date.parse(clockB.now)).toBeGreaterThan(7_100_000)
    expect(a.journal.entries().length).toBe(2)
    expect(b.journal.entries().length).toBe(1)
  })

  it('answers list operations sent as GET ?list=true', async () => {
    await fetch('http://a.doppel.test/v1/auth/cloud/roles?list=true')
    expect(a.journal.entries().at(-1)).toMatchObject({ method: 'GET', service: 'cloud-auth' })
  })

  it('turns a drop fault into a network error', async () => {
    a.faults.add({ path: '/api/v2/ping', drop: true })
    await expect(fetch('http://a.doppel.test/api/v2/ping')).rejects.toThrow()
  })
})
