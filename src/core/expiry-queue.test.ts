import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ExpiryQueue } from './expiry-queue.ts'

describe('ExpiryQueue', () => {
  it('hands over exactly the due entries, earliest first, and keeps the rest', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string(), fc.integer({ min: 0, max: 1000 }))), fc.integer({ min: -1, max: 1001 }), (entries, now) => {
        const queue = new ExpiryQueue()
        for (const [key, at] of entries) queue.push(key, at)
        const drained: number[] = []
        queue.drain(now, (_key, at) => drained.push(at))
        const due = entries.map(([, at]) => at).filter((at) => at <= now).sort((a, b) => a - b)
        expect(drained).toEqual(due)
        expect(queue.size).toBe(entries.length - due.length)
        const rest: number[] = []
        queue.drain(Infinity, (_key, at) => rest.push(at))
        expect(rest).toEqual(entries.map(([, at]) => at).filter((at) => at > now).sort((a, b) => a - b))
      }),
    )
  })
})
