import fc from 'fast-check'
import { expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'

// A role's read data is written as JSON once and reused until the role changes: whatever the order of
// writes, deletes, snapshots, restores and resets, a read answers the role as it is now, escaped as the real
// service escapes it, with a request id of its own.
const ROLE = 'http://127.0.0.1:8200/v1/auth/cloud/role/written'
const ROOT = { 'X-Service-Token': 'root' }

// Letters at both ends: the service trims white space (U+2028 among it) from each value.
const value = fc
  .string({ unit: fc.constantFrom('a', '<', '>', '&', '\u2028', 'é', '"', '\\', '/'), maxLength: 6 })
  .map((inner) => `a${inner}b`)
const step = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), amis: fc.array(value, { minLength: 1, maxLength: 3 }) }),
  fc.record({ kind: fc.constantFrom('read' as const, 'delete' as const, 'snapshot' as const, 'restore' as const, 'reset' as const) }),
)

it('a role read answers the role as it is after every change', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
      const doppel = createDoppel({ seed: 3, cloudAuth: { env: {} } })
      let amis: string[] | undefined
      let saved: { snapshot: unknown; amis: string[] | undefined } | undefined
      // Request ids are new on every read, but for those a reset or restore makes again: the seeded ids start
      // over at the seed, or at the snapshot.
      const ids = new Set<string>()
      const read = async () => {
        const response = await doppel.fetch(ROLE, { headers: ROOT })
        const text = await response.text()
        if (amis === undefined) return expect(response.status).toBe(404)
        expect(response.status).toBe(200)
        expect(text).not.toMatch(/[<>&\u2028]/)
        const body = JSON.parse(text)
        expect(body.data.bound_ami_id).toEqual(amis)
        expect(ids.has(body.request_id)).toBe(false)
        ids.add(body.request_id)
      }
      for (const s of steps) {
        if (s.kind === 'write') {
          const response = await doppel.fetch(ROLE, { method: 'POST', headers: { ...ROOT, 'Content-Type': 'application/json' }, body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: s.amis }) })
          expect(response.status).toBe(204)
          amis = s.amis
        } else if (s.kind === 'delete') {
          expect((await doppel.fetch(ROLE, { method: 'DELETE', headers: ROOT })).status).toBe(204)
          amis = undefined
        } else if (s.kind === 'snapshot') saved = { snapshot: doppel.snapshot(), amis }
        else if (s.kind === 'restore' && saved) {
          doppel.restore(saved.snapshot)
          amis = saved.amis
          ids.clear()
        } else if (s.kind === 'reset') {
          await doppel.reset()
          amis = undefined
          ids.clear()
        }
        await read()
      }
    }),
    { numRuns: 60 },
  )
})
