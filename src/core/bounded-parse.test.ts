import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml'
import { checkJsonDepth, checkYamlDepth, jsonValueEnd, NestingTooDeepError } from './bounded-parse.ts'

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
        expect(jsonValueEnd(text + tail, 0, 1000)).toBe(text.length)
      }),
    )
    expect(jsonValueEnd('{"a":"\\\\"}', 0, 10)).toBe(10)
    expect(jsonValueEnd('{"a":"\\"}', 0, 10)).toBe(-1)
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
      const started = performance.now()
      expect(refuses(() => (text.startsWith('[') ? checkJsonDepth(text, 100) : checkYamlDepth(text, 100)))).toBe(true)
      expect(performance.now() - started).toBeLessThan(100)
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
