// A figure is met against its target; a server figure also carries where node:http doing doppel's work
// stands against the same target, and a missed figure says when that floor misses it too.
import { describe, expect, it } from 'vitest'
import { figure, floorMissesToo } from '../../bench/lib.ts'

describe('bench figures and their floors', () => {
  it('meets each kind of target, rounding the value', () => {
    expect(figure('a', 1.99949, 'x', '<= 2.0')).toEqual({ name: 'a', value: 1.999, unit: 'x', target: '<= 2.0', met: true })
    expect(figure('b', 300, 'ms', '< 300').met).toBe(false)
    expect(figure('c', 0.9, 'x', '>= 0.9').met).toBe(true)
  })

  it('states the floor against the same target, and only a missed figure with a missed floor says so', () => {
    const missedWithFloor = figure('POST role / bare', 2.467, 'x', '<= 2.0', 'detail', 2.0912)
    expect(missedWithFloor.floor).toEqual({ value: 2.091, met: false })
    expect(floorMissesToo(missedWithFloor)).toBe(true)
    // The floor meets it: doppel's own overhead is what misses.
    expect(floorMissesToo(figure('POST role / WireMock', 0.557, 'x', '<= 0.5', 'detail', 0.43))).toBe(false)
    // Met, whatever the floor.
    expect(floorMissesToo(figure('GET role / bare', 1.84, 'x', '<= 2.0', 'detail', 2.54))).toBe(false)
    // No floor measured (not a server figure).
    expect(floorMissesToo(figure('pkcs7 / verify', 2.3, 'x', '<= 2'))).toBe(false)
  })
})
