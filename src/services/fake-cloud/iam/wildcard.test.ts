import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { wildcardMatch } from './wildcard.ts'

/** A reference matcher by dynamic programming, to check the greedy one against. */
function reference(pattern: string, text: string): boolean {
  const m = pattern.length
  let row = Array.from({ length: text.length + 1 }, (_, j) => j === 0)
  for (let i = 1; i <= m; i++) {
    const c = pattern[i - 1]
    const next = new Array<boolean>(text.length + 1).fill(false)
    next[0] = c === '*' && row[0]!
    for (let j = 1; j <= text.length; j++) {
      next[j] = c === '*' ? next[j - 1]! || row[j]! : row[j - 1]! && (c === '?' || c === text[j - 1])
    }
    row = next
  }
  return row[text.length]!
}

describe('wildcardMatch', () => {
  it('matches IAM action and ARN patterns', () => {
    expect(wildcardMatch('iam:Get*', 'iam:GetUser')).toBe(true)
    expect(wildcardMatch('iam:get*', 'iam:GetUser', true)).toBe(true)
    expect(wildcardMatch('iam:Get*', 'iam:CreateAccessKey')).toBe(false)
    expect(wildcardMatch('arn:aws:iam::*:role/app-?', 'arn:aws:iam::123456789012:role/app-1')).toBe(true)
    expect(wildcardMatch('arn:aws:iam::*:role/app-?', 'arn:aws:iam::123456789012:role/app-12')).toBe(false)
    expect(wildcardMatch('*', '')).toBe(true)
    expect(wildcardMatch('a*a', 'a')).toBe(false)
  })

  it('agrees with a dynamic-programming matcher (fast-check)', () => {
    const chars = fc.constantFrom('a', 'b', '*', '?')
    fc.assert(
      fc.property(fc.string({ unit: chars, maxLength: 8 }), fc.string({ unit: fc.constantFrom('a', 'b'), maxLength: 10 }), (pattern, text) => {
        expect(wildcardMatch(pattern, text)).toBe(reference(pattern, text))
      }),
      { numRuns: 3000 },
    )
  })

  it('answers patterns with many stars (no backtracking)', () => {
    expect(wildcardMatch(`${'*a'.repeat(1000)}b`, 'a'.repeat(2000))).toBe(false)
    expect(wildcardMatch(`${'*a'.repeat(1000)}*`, 'a'.repeat(2000))).toBe(true)
  })
})
