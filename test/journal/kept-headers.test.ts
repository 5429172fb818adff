import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { createDoppelServer, listen } from '../../src/faces/server/index.ts'
import { LightRequest } from '../../src/core/light-request.ts'
import { redactHeaderValue } from '../../src/services/control/index.ts'

// The journal keeps a request's header list as one string until it is read; read back, every name keeps its
// own values (lower-cased, repeated names joined with ", ", secrets redacted), whatever the values hold.

const ROLE_URL = 'http://127.0.0.1/v1/auth/cloud/role/web'

/** The headers as `Headers.get` would read them, each value redacted: what the journal shows. */
function expected(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase()
    const value = redactHeaderValue(name, raw[i + 1]!)
    out[name] = Object.hasOwn(out, name) ? `${out[name]}, ${value}` : value
  }
  return out
}

describe("the journal's kept request headers", () => {
  it('read back over HTTP: repeated names joined, an empty value kept, the token redacted', async () => {
    const doppel = createDoppel()
    const server = await listen(createDoppelServer(doppel), 0)
    try {
      const headers = new Headers([
        ['X-Service-Token', 'root'],
        ['X-Note', 'one'],
        ['X-Note', 'two'],
        ['X-Empty', ''],
      ])
      const response = await fetch(`${server.url}/v1/auth/cloud/role/web`, { headers })
      expect(response.status).toBe(404)
      const kept = doppel.journal.entries()[0]!.request.headers
      expect(kept).toMatchObject({ 'x-service-token': '<redacted>', 'x-note': 'one, two', 'x-empty': '' })
    } finally {
      await server.close()
    }
  })

  it('read back whole when a value holds a line break: no value shown under another name', async () => {
    const doppel = createDoppel()
    const raw = ['X-Note', 'a\nroot', 'X-Service-Token', 'root', 'Authorization', 'Bearer s3cret']
    await doppel.handle(new LightRequest('GET', ROLE_URL, raw, undefined))
    const kept = doppel.journal.entries()[0]!.request.headers
    expect(kept).toEqual({ 'x-note': 'a\nroot', 'x-service-token': '<redacted>', authorization: 'Bearer <redacted>' })
  })

  it('read back as the list they came from, whatever the names repeat and the values hold', async () => {
    const name = fc.constantFrom('X-A', 'x-a', 'X-B', 'Content-Type', 'X-Service-Token', 'Authorization', 'X-Amz-Security-Token')
    const value = fc.string({ maxLength: 12, unit: fc.constantFrom('a', 'b', ' ', '\n', ',', 'é', '\t') })
    const list = fc.array(fc.tuple(name, value), { maxLength: 8 })
    await fc.assert(
      fc.asyncProperty(list, async (pairs) => {
        const doppel = createDoppel()
        const raw = pairs.flat()
        await doppel.handle(new LightRequest('GET', ROLE_URL, raw, undefined))
        expect(doppel.journal.entries()[0]!.request.headers).toEqual(expected(raw))
      }),
      { numRuns: 200 },
    )
  })
})
