import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml'
import { checkJsonDepth, checkYamlDepth, JsonScan, NestingTooDeepError, TooManyEntriesError } from './bounded-parse.ts'
import { threadCpuMs } from '../../test/support/thread-cpu.ts'

/** Where the first JSON value in `text` closes (just past it), or -1: one scan of the whole text. */
const valueEnd = (text: string | Uint8Array, limit: number) => new JsonScan(limit).push(text)

/** Nesting as the parsed value has it: 0 for a scalar, 1 + the deepest child for a collection. */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0
  let deepest = 0
  for (const child of Object.values(value)) deepest = Math.max(deepest, depthOf(child))
  return deepest + 1
}

const refuses = (check: () => void) => {
  try {
    check()
    return false
  } catch (error) {
    expect(error).toBeInstanceOf(NestingTooDeepError)
    return true
  }
}

describe('nesting limits before parsing', () => {
  it('JSON: the scan sees exactly the depth the parser builds, strings and escapes skipped', () => {
    fc.assert(
      fc.property(fc.json({ depthSize: 'large' }), (text) => {
        const depth = depthOf(JSON.parse(text))
        expect(refuses(() => checkJsonDepth(text, depth))).toBe(false)
        if (depth > 0) expect(refuses(() => checkJsonDepth(text, depth - 1))).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })

  it('JSON: finds the end of the first value and ignores what follows', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), (object, tail) => {
        const text = JSON.stringify(object)
        expect(valueEnd(text + tail, 1000)).toBe(text.length)
      }),
    )
    expect(valueEnd('{"a":"\\\\"}', 10)).toBe(10)
    expect(valueEnd('{"a":"\\"}', 10)).toBe(-1)
  })

  it('YAML: never counts less than the parser builds, block or flow', () => {
    fc.assert(
      fc.property(fc.jsonValue({ depthSize: 'large' }), fc.constantFrom('block', 'flow', 'mixed'), (value, style) => {
        const text = stringifyYaml(value, { collectionStyle: style === 'mixed' ? 'any' : style, flowCollectionPadding: false })
        const depth = depthOf(parseYaml(text))
        if (depth > 0) expect(refuses(() => checkYamlDepth(text, depth - 1))).toBe(true)
        expect(refuses(() => checkYamlDepth(text, depth + 2))).toBe(false)
      }),
      { numRuns: 1000 },
    )
  })

  it('refuses 200k levels in milliseconds', () => {
    for (const text of ['['.repeat(200_000), '- '.repeat(200_000) + 'x', '{a: '.repeat(200_000)]) {
      // This thread's CPU time: the wall clock would also count waits for a core while other files run.
      const started = threadCpuMs()
      expect(refuses(() => (text.startsWith('[') ? checkJsonDepth(text, 100) : checkYamlDepth(text, 100)))).toBe(true)
      expect(threadCpuMs() - started).toBeLessThan(100)
    }
  })
})

describe('nesting limits: JSON read as YAML (fixtures)', () => {
  it('never counts less than the parser builds', () => {
    fc.assert(
      fc.property(fc.json({ depthSize: 'large' }), (text) => {
        const depth = depthOf(JSON.parse(text))
        if (depth > 0) expect(refuses(() => checkYamlDepth(text, depth - 1))).toBe(true)
        expect(refuses(() => checkYamlDepth(text, depth + 2))).toBe(false)
      }),
      { numRuns: 2000 },
    )
  })
})

/** The most entries one collection of a parsed value holds, and the separators between entries in all of them. */
function entriesOf(value: unknown): { most: number; total: number } {
  if (typeof value !== 'object' || value === null) return { most: 0, total: 0 }
  const children = Object.values(value)
  let most = children.length
  // The scan counts separators: a collection of n entries has n - 1.
  let total = Math.max(children.length - 1, 0)
  for (const child of children) {
    const inner = entriesOf(child)
    most = Math.max(most, inner.most)
    total += inner.total
  }
  return { most, total }
}

describe('entry limits before parsing', () => {
  it('JSON: refused exactly past the most entries of one collection, or of all; the same in pieces as whole', () => {
    fc.assert(
      fc.property(fc.json({ depthSize: 'medium' }), fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
        const { most, total } = entriesOf(JSON.parse(text))
        const scan = (perCollection: number, all: number, pieces: boolean) => {
          const limits = { perCollection, total: all }
          try {
            if (!pieces) checkJsonDepth(Buffer.from(text), 1000, limits)
            else {
              const bytes = Buffer.from(text)
              const at = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b)
              const scanner = new JsonScan(1000, limits, true)
              let from = 0
              for (const to of [...at, bytes.length]) {
                scanner.push(bytes.subarray(from, to))
                from = to
              }
            }
            return false
          } catch (error) {
            expect(error).toBeInstanceOf(TooManyEntriesError)
            return true
          }
        }
        for (const pieces of [false, true]) {
          expect(scan(most, total, pieces)).toBe(false)
          if (most > 1) expect(scan(most - 1, total, pieces)).toBe(true)
          if (total > 0) expect(scan(most, total - 1, pieces)).toBe(true)
        }
      }),
    )
  })

  it('JSON in pieces: a string cut after any backslash ends where it does whole', () => {
    fc.assert(
      fc.property(fc.json(), fc.nat(), (text, cut) => {
        const bytes = Buffer.from(text)
        const at = cut % (bytes.length + 1)
        const whole = valueEnd(bytes, 1000)
        const scanner = new JsonScan(1000)
        const first = scanner.push(bytes.subarray(0, at))
        const end = first !== -1 ? first : (() => {
          const second = scanner.push(bytes.subarray(at))
          return second === -1 ? -1 : second + at
        })()
        expect(end).toBe(whole)
      }),
    )
  })
})
