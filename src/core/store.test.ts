import { describe, expect, it } from 'vitest'
import { Store } from './store.ts'

interface Row {
  id: string
  group?: string
}

describe('KeyedCollection indexes', () => {
  it('finds records by an index value held by one record, then by several, in insertion order', () => {
    const rows = new Store().collection<Row>('rows', { key: (row) => row.id, indexes: { group: (row) => row.group } })
    rows.set({ id: 'a', group: 'g' })
    expect(rows.findBy('group', 'g').map((row) => row.id)).toEqual(['a'])
    expect(rows.findOneBy('group', 'g')?.id).toBe('a')
    rows.set({ id: 'b', group: 'g' })
    rows.set({ id: 'c', group: 'g' })
    expect(rows.findBy('group', 'g').map((row) => row.id)).toEqual(['a', 'b', 'c'])
    rows.delete('a')
    rows.set({ id: 'b', group: 'h' })
    expect(rows.findBy('group', 'g').map((row) => row.id)).toEqual(['c'])
    expect(rows.findOneBy('group', 'h')?.id).toBe('b')
    rows.delete('c')
    expect(rows.findBy('group', 'g')).toEqual([])
    expect(rows.findOneBy('group', 'g')).toBeUndefined()
  })

  it('keeps a record found under its value when it is written again unchanged, and drops it when the value goes', () => {
    const rows = new Store().collection<Row>('rows', { key: (row) => row.id, indexes: { group: (row) => row.group } })
    rows.set({ id: 'a', group: 'g' })
    rows.set({ id: 'a', group: 'g' })
    expect(rows.findBy('group', 'g').map((row) => row.id)).toEqual(['a'])
    rows.set({ id: 'a' })
    expect(rows.findBy('group', 'g')).toEqual([])
    expect(rows.findOneBy('group', 'g')).toBeUndefined()
  })
})
