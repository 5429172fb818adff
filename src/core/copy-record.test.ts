import fc from 'fast-check'
import { expect, it } from 'vitest'
import { copyRecord } from './copy-record.ts'

it('copies plain data deeply: equal, but sharing nothing mutable', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const copy = copyRecord(value)
      expect(copy).toEqual(value)
      if (typeof value === 'object' && value !== null) expect(copy).not.toBe(value)
    }),
  )
  const role = { name: 'web', bound_ami_id: ['ami-1'], nested: { list: [{ a: 1 }] }, nothing: null }
  const copy = copyRecord(role)
  copy.bound_ami_id.push('ami-2')
  copy.nested.list[0]!.a = 2
  expect(role).toEqual({ name: 'web', bound_ami_id: ['ami-1'], nested: { list: [{ a: 1 }] }, nothing: null })
})

it('keeps an own "__proto__" key a key, never the prototype', () => {
  const parsed = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>
  const copy = copyRecord(parsed)
  expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
  expect((copy as { polluted?: boolean }).polluted).toBeUndefined()
  expect(Object.keys(copy)).toEqual(['__proto__', 'a'])
  expect(copy).toEqual(parsed)
})

it('copies an array holding objects and holes, and keeps key order', () => {
  // biome-ignore lint/suspicious/noSparseArray: the hole is what this test copies
  const value = { z: 1, list: [{ a: [1, { b: 2 }] }, , 'x'], a: { y: [] as unknown[] } }
  const copy = copyRecord(value)
  expect(copy).toEqual(value)
  expect(Object.keys(copy)).toEqual(['z', 'list', 'a'])
  expect(1 in copy.list).toBe(false)
  expect(copy.list[0]).not.toBe(value.list[0])
  expect(copy.a.y).not.toBe(value.a.y)
})
