import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compilePathPattern, compileWildcard, PATTERN_LIMIT } from '../../src/core/path-pattern.ts'

type RefToken = { kind: 'char'; char: string } | { kind: 'segment' } | { kind: 'star' } | { kind: 'one' }

/** The reference: a plain table over (token, position), the meaning written out with no cleverness. */
function referenceMatch(tokens: RefToken[], subject: string): boolean {
  // can[i][j]: tokens[i..] match subject[j..]
  const can = Array.from({ length: tokens.length + 1 }, () => new Array<boolean>(subject.length + 1).fill(false))
  can[tokens.length]![subject.length] = true
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i]!
    for (let j = subject.length; j >= 0; j--) {
      const c = subject[j]
      if (token.kind === 'char') can[i]![j] = c === token.char && can[i + 1]![j + 1]!
      else if (token.kind === 'one') can[i]![j] = c !== undefined && can[i + 1]![j + 1]!
      else if (token.kind === 'star') can[i]![j] = can[i + 1]![j]! || (c !== undefined && can[i]![j + 1]!)
      else {
        // one or more characters other than '/'
        let ok = false
        for (let k = j; k < subject.length && subject[k] !== '/'; k++) if (can[i + 1]![k + 1]) ok = true
        can[i]![j] = ok
      }
    }
  }
  return can[0]![0]!
}

function referencePathTokens(pattern: string): RefToken[] {
  return pattern.split(/(\*|:[A-Za-z_][A-Za-z0-9_]*)/).flatMap((part): RefToken[] => {
    if (part === '*') return [{ kind: 'star' }]
    if (/^:[A-Za-z_]/.test(part)) return [{ kind: 'segment' }]
    return [...part].map((char) => ({ kind: 'char', char }))
  })
}

const referencePath = (pattern: string, path: string) =>
  referenceMatch(referencePathTokens(pattern), path) || (path.endsWith('/') && referenceMatch(referencePathTokens(pattern), path.slice(0, -1)))

const referenceWildcard = (wildcard: string, value: string) =>
  referenceMatch([...wildcard].map((char): RefToken => (char === '*' ? { kind: 'star' } : char === '?' ? { kind: 'one' } : { kind: 'char', char })), value)

/** The regular expression the fault patterns compiled to before (exact on short input, where backtracking is cheap). */
function previousRegExp(pattern: string): RegExp {
  let source = ''
  for (const part of pattern.split(/(\*|:[A-Za-z_][A-Za-z0-9_]*)/)) {
    if (part === '*') source += '.*'
    else if (part.startsWith(':') && part.length > 1) source += '[^/]+'
    else source += part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${source}/?$`)
}

const patternUnit = fc.constantFrom('a', 'b', '/', '-', '.', '*', ':id', ':x', '?', '(', '\u00e9')
const pathUnit = fc.constantFrom('a', 'b', '/', '-', '.', 'x', '?', '(', '\u00e9')
const shortPattern = fc.array(patternUnit, { maxLength: 14 }).map((parts) => parts.join(''))
const shortPath = fc.array(pathUnit, { maxLength: 16 }).map((parts) => parts.join(''))

describe('path patterns: one linear-time matcher', () => {
  it('agrees with the reference and with the regular expressions it replaces', () => {
    fc.assert(
      fc.property(shortPattern, shortPath, (pattern, path) => {
        const compiled = compilePathPattern(pattern)
        const expected = referencePath(pattern, path)
        expect(compiled.test(path)).toBe(expected)
        expect(previousRegExp(pattern).test(path)).toBe(expected)
      }),
      { numRuns: 3000 },
    )
  })

  it('matches what it is built from (a path derived from the pattern always matches)', () => {
    fc.assert(
      fc.property(shortPattern, fc.array(fc.constantFrom('a', 'b/c', 'zz', ''), { minLength: 20, maxLength: 20 }), (pattern, fillers) => {
        let i = 0
        const path = pattern.replace(/\*|:[A-Za-z_][A-Za-z0-9_]*/g, (part) => (part === '*' ? fillers[i++ % 20]! : fillers[i++ % 20]!.replace('/', '') || 'q'))
        expect(compilePathPattern(pattern).test(path)).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })

  it('EC2 wildcards agree with the reference', () => {
    const unit = fc.constantFrom('a', 'b', '*', '?', '.', '\n')
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 12 }), fc.string({ unit: fc.constantFrom('a', 'b', '.', '\n', '*'), maxLength: 14 }), (wildcard, value) => {
        expect(compileWildcard(wildcard)(value)).toBe(referenceWildcard(wildcard, value))
      }),
      { numRuns: 3000 },
    )
  })

  it('captures whole-segment names for route tables, raw', () => {
    const route = compilePathPattern('/api/v2/organizations/:org/registry-modules/private/:namespace/:name')
    expect(route.match('/api/v2/organizations/acme/registry-modules/private/acme/vp%20c/')).toEqual({ org: 'acme', namespace: 'acme', name: 'vp%20c' })
    expect(route.match('/api/v2/organizations/acme/registry-modules/private/acme')).toBeUndefined()
    expect(route.match('/api/v2/organizations//registry-modules/private/acme/x')).toBeUndefined()
  })

  it('full-URL patterns match origin and path without the query', () => {
    const pattern = compilePathPattern('http://127.0.0.1:8200/v1/*')
    expect(pattern.testUrl(new URL('http://127.0.0.1:8200/v1/auth/cloud/login?x=1'))).toBe(true)
    expect(pattern.testUrl(new URL('http://localhost:8200/v1/auth/cloud/login'))).toBe(false)
  })

  it('any pattern against any path up to 2 KB answers in well under a millisecond', () => {
    // Half the patterns open with `*`, so the literal-prefix check does not answer for the automaton.
    const long = (unit: fc.Arbitrary<string>) =>
      fc.tuple(fc.boolean(), fc.array(unit, { maxLength: PATTERN_LIMIT / 4 })).map(([star, parts]) => `${star ? '*' : ''}${parts.join('')}`.slice(0, PATTERN_LIMIT))
    const adversarial: [string, string][] = [
      [`/v1/auth/cloud/${'*a'.repeat(1000)}*b`, `/v1/auth/cloud/${'a'.repeat(2000)}`],
      [`${'*a'.repeat(1023)}*`.slice(0, PATTERN_LIMIT), 'a'.repeat(2048)],
      [`/${':p'.repeat(680)}/x`, `/${'a'.repeat(2040)}/y`],
      [`${'*/'.repeat(1024)}`, '/'.repeat(2048)],
    ]
    const timings: number[] = []
    // Each case's time is the best of three, so a garbage collection or a recompilation in the middle of
    // one run does not count as the matcher's; the maximum is then taken over every case.
    const time = (pattern: string, path: string) => {
      const compiled = compilePathPattern(pattern)
      let best = Infinity
      for (let run = 0; run < 3; run++) {
        const start = performance.now()
        compiled.test(path)
        best = Math.min(best, performance.now() - start)
      }
      timings.push(best)
    }
    for (let round = 0; round < 5; round++) for (const [pattern, path] of adversarial) time(pattern, path)
    fc.assert(fc.property(long(patternUnit), long(pathUnit), (pattern, path) => time(pattern, path)), { numRuns: 300 })
    // Warm-up (the first runs compile the code) does not count; the bound is generous so a busy machine passes.
    const worst = Math.max(...timings.slice(10))
    const median = timings.slice(10).sort((a, b) => a - b)[timings.length >> 1]!
    console.log(`path-pattern: ${timings.length} matches, median ${(median * 1000).toFixed(1)} µs, worst ${worst.toFixed(3)} ms`)
    expect(worst).toBeLessThan(5)
    expect(compilePathPattern(adversarial[0]![0]).test(adversarial[0]![1])).toBe(false)
  })

  it('refuses patterns past the limit', () => {
    expect(() => compilePathPattern('a'.repeat(PATTERN_LIMIT + 1))).toThrow(/longer than 2048/)
    expect(() => compileWildcard('*'.repeat(PATTERN_LIMIT + 1))).toThrow(/longer than 2048/)
  })
})

describe('path patterns of whole segments (route tables)', () => {
  const segment = fc.oneof(fc.constantFrom(':id', ':name', 'a', 'b', 'ab', '', '.'), fc.string({ unit: fc.constantFrom('a', 'b', '-'), maxLength: 3 }))
  const routePattern = fc.array(segment, { minLength: 1, maxLength: 6 }).map((segments) => segments.join('/'))
  const routePath = fc.array(fc.constantFrom('a', 'b', 'ab', '', '.', 'x', '-'), { maxLength: 7 }).map((segments) => segments.join('/'))

  it('match segment by segment exactly as the automaton would, and capture the right segments', () => {
    fc.assert(
      fc.property(routePattern, routePath, fc.boolean(), (pattern, path, trailing) => {
        const subject = trailing ? `${path}/` : path
        const params = compilePathPattern(pattern).match(subject)
        expect(params !== undefined).toBe(referencePath(pattern, subject))
        if (params === undefined) return
        const segments = subject.split('/')
        const expected: Record<string, string> = {}
        pattern.split('/').forEach((part, i) => {
          if (part.startsWith(':')) expected[part.slice(1)] = segments[i]!
        })
        expect(params).toEqual(expected)
      }),
      { numRuns: 3000 },
    )
  })
})
