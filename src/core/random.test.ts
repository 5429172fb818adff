import { describe, expect, it } from 'vitest'
import { Random } from './random.ts'

describe('seeded uuids', () => {
  it('are the next 16 bytes of the generator as an RFC 4122 version 4 uuid, drawing as bytes(16) does', () => {
    const ids = new Random(42)
    const bytes = new Random(42)
    for (let i = 0; i < 1000; i++) {
      const b = bytes.bytes(16)
      b[6] = (b[6]! & 0x0f) | 0x40
      b[8] = (b[8]! & 0x3f) | 0x80
      const hex = b.toString('hex')
      expect(ids.uuid()).toBe(`${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`)
    }
    expect(ids.draws).toBe(bytes.draws)
    expect(ids.position()).toEqual(bytes.position())
  })
})
