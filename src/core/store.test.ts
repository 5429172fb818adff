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

describe('KeyedCollection.deleteWhere', () => {
  // The same picks leave the same records, indexes and size, whether few go (one by one) or most (moved).
  it.each([
    ['a few', (row: Row) => row.id === 'r1'],
    ['most', (row: Row) => row.id !== 'r1'],
  ])('deleting %s leaves what deleting each would', (_, drop) => {
    const fill = () => {
      const store = new Store()
      const rows = store.collection<Row>('rows', { key: (row) => row.id, indexes: { group: (row) => row.group } })
      for (let i = 0; i < 5; i++) rows.set({ id: `r${i}`, group: i % 2 ? 'odd' : 'even' })
      return { store, rows }
    }
    const bulk = fill()
    const single = fill()
    const gone = [...single.rows.values()].filter(drop)
    for (const row of gone) single.rows.delete(row.id)
    expect(bulk.rows.deleteWhere(drop)).toBe(gone.length)
    expect([...bulk.rows.keys()]).toEqual([...single.rows.keys()])
    expect(bulk.rows.findBy('group', 'odd')).toEqual(single.rows.findBy('group', 'odd'))
    expect(bulk.rows.findBy('group', 'even')).toEqual(single.rows.findBy('group', 'even'))
    expect(bulk.store.bytes).toBe(single.store.bytes)
    expect(bulk.store.writes).toBeGreaterThan(5)
  })
})
