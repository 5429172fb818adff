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

  it('keeps the strict semver 2.0.0 reading where npm semver and go-version differ (docs/decisions/semver.md)', () => {
    // npm semver's valid() takes all of these (dropping the v, the spaces); go-version takes the first three.
    for (const v of ['v1.0.0', '1.2.3.4', '01.2.3', ' 1.0.0', '=1.0.0']) expect(isSemver(v), v).toBe(false)
    // Components past 2^53 stay exact (npm semver refuses the first and ties the prerelease pair).
    expect(isSemver('99999999999999999999.0.0')).toBe(true)
    expect(compareSemver('1.0.0-x.9007199254740993', '1.0.0-x.9007199254740992')).toBe(1)
    expect(compareSemver('18446744073709551616.0.0', '18446744073709551615.0.0')).toBe(1)
    // Build metadata never orders; a longer prerelease with an equal start is later.
    expect(compareSemver('1.0.0+b', '1.0.0+a')).toBe(0)
    expect(compareSemver('1.0.0-rc', '1.0.0-rc.1')).toBeLessThan(0)
  })

  it('is antisymmetric on generated versions (fast-check)', () => {
    const version = fc
      .tuple(fc.nat(20), fc.nat(20), fc.nat(20), fc.option(fc.constantFrom('alpha', 'beta.1', 'rc.2', '1')))
      .map(([a, b, c, pre]) => `${a}.${b}.${c}${pre ? `-${pre}` : ''}`)
    fc.assert(fc.property(version, version, (a, b) => Math.sign(compareSemver(a, b)) === -Math.sign(compareSemver(b, a))))
  })
})
