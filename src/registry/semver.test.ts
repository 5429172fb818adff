import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compareSemver, isPrerelease, isSemver } from './semver.ts'

describe('semver', () => {
  it('accepts semantic versions and refuses the rest', () => {
    for (const v of ['0.0.0', '1.2.3', '1.2.3-alpha+feature', '10.20.30-rc.1.2', '1.0.0+build.5']) expect(isSemver(v), v).toBe(true)
    for (const v of ['1', '1.0', 'v1.0.0', '01.0.0', '1.0.0-', '1.0.0-01', '1.0.0 ', '']) expect(isSemver(v), v).toBe(false)
  })

  it('orders by semver precedence', () => {
    const sorted = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0', '1.10.0', '2.0.0']
    expect([...sorted].reverse().sort(compareSemver)).toEqual(sorted)
    expect(isPrerelease('1.0.0-rc.1')).toBe(true)
    expect(isPrerelease('1.0.0+build')).toBe(false)
  })

  it('is antisymmetric on generated versions (fast-check)', () => {
    const version = fc
      .tuple(fc.nat(20), fc.nat(20), fc.nat(20), fc.option(fc.constantFrom('alpha', 'beta.1', 'rc.2', '1')))
      .map(([a, b, c, pre]) => `${a}.${b}.${c}${pre ? `-${pre}` : ''}`)
    fc.assert(fc.property(version, version, (a, b) => Math.sign(compareSemver(a, b)) === -Math.sign(compareSemver(b, a))))
  })
})
