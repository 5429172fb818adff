import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MATCHERS } from '../../src/faces/scenario/index.ts'
import { checkExpectation, matchValue, type MatchOptions } from '../../src/faces/scenario/shared.ts'
const captures: Record<string, unknown> = { 'steps.create.id': 'role-123', 'steps.create.obj': { a: [1, 2] } }
const options: MatchOptions = { exact: false, resolveReference: (reference) => captures[reference.trim()] }
const exact: MatchOptions = { ...options, exact: true }

/** The messages of matching `expected` against `actual` under `$.v` (absent when `actual` is undefined). */
function messages(expected: unknown, actual: unknown, opts = options): string[] {
  const body = actual === undefined ? {} : { v: actual }
  return matchValue({ v: expected }, body, opts).map((m) => `${m.path}: ${m.message}`)
}

describe('matchers: each passes, and fails with a clear message', () => {
  const cases: [string, unknown, unknown, unknown, string][] = [
    // name, matcher, passing value, failing value, failure message
    ['$eq', { $eq: { a: 1 } }, { a: 1 }, { a: 1, b: 2 }, '$.v: expected exactly {"a":1}, got {"a":1,"b":2}'],
    ['$ne', { $ne: 'x' }, 'y', 'x', '$.v: expected anything but "x"'],
    ['$gt', { $gt: 5 }, 6, 5, '$.v: expected a value greater than 5, got 5'],
    ['$gte', { $gte: 5 }, 5, 4, '$.v: expected a value greater than or equal to 5, got 4'],
    ['$lt', { $lt: 5 }, 4, 5, '$.v: expected a value less than 5, got 5'],
    ['$lte', { $lte: 5 }, 5, 6, '$.v: expected a value less than or equal to 5, got 6'],
    ['$in', { $in: [200, 204] }, 204, 404, '$.v: expected one of [200,204], got 404'],
    ['$regex', { $regex: '^hvs\\.' }, 'hvs.abc', 'abc', '$.v: expected a string matching /^hvs\\./, got "abc"'],
    ['$type', { $type: 'integer' }, 3, 3.5, '$.v: expected an integer, got a number 3.5'],
    ['$minLength', { $minLength: 2 }, 'ab', 'a', '$.v: expected a length of at least 2, got 1'],
    ['$length', { $length: 2 }, [1, 2], [1], '$.v: expected a length of 2, got 1'],
    ['$contains', { $contains: 'nonce' }, 'bad nonce given', 'bad', '$.v: expected a string containing "nonce", got "bad"'],
    ['$each', { $each: { $type: 'string' } }, ['a', 'b'], ['a', 2], '$.v[1]: expected a string, got an integer 2'],
    ['$absent', { $absent: true }, undefined, 'here', '$.v: expected no value, got "here"'],
    ['$exists', { $exists: true }, null, undefined, '$.v: expected a value, but it is absent'],
    ['$duration', { $duration: '72h' }, 259200, 3600, '$.v: expected a duration of 72h (259200 seconds), got 3600'],
    ['$sameAs', { $sameAs: 'steps.create.id' }, 'role-123', 'role-9', '$.v: expected the same value as steps.create.id ("role-123"), got "role-9"'],
  ]

  it('covers the whole closed set', () => {
    expect(cases.map(([name]) => name).sort()).toEqual([...MATCHERS].sort())
  })

  for (const [name, matcher, passing, failing, message] of cases) {
    it(`${name}`, () => {
      expect(messages(matcher, passing)).toEqual([])
      expect(messages(matcher, failing)).toEqual([message])
    })
  }
})

describe('matchers: the finer points', () => {
  it('$gt and friends compare strings with strings (RFC 3339 times) and refuse mixed kinds', () => {
    expect(messages({ $gt: '2024-01-01T00:00:00Z' }, '2024-05-01T00:00:00Z')).toEqual([])
    expect(messages({ $gt: 1 }, '2')).toEqual(['$.v: expected a value greater than 1, got "2"'])
  })

  it('$type accepts a list of types, and names object/array as mapping/list', () => {
    expect(messages({ $type: ['string', 'null'] }, null)).toEqual([])
    expect(messages({ $type: 'array' }, {})).toEqual(['$.v: expected a list, got a mapping {}'])
    expect(messages({ $type: 'object' }, [])).toEqual(['$.v: expected a mapping, got a list []'])
  })

  it('$contains on a list matches an item as a subset', () => {
    expect(messages({ $contains: { version: '1.0.0' } }, [{ version: '1.0.0', deprecation: null }])).toEqual([])
    expect(messages({ $contains: { version: '2.0.0' } }, [{ version: '1.0.0' }])).toEqual([
      '$.v: expected a list with an item matching {"version":"2.0.0"}, got [{"version":"1.0.0"}]',
    ])
    expect(messages({ $contains: 'x' }, 5)).toEqual(['$.v: expected a string or a list containing "x", got 5'])
  })

  it('$duration reads Go duration strings on both sides', () => {
    expect(messages({ $duration: '1h30m' }, '90m')).toEqual([])
    expect(messages({ $duration: 60 }, '1m')).toEqual([])
  })

  it('$absent: false and $exists: false', () => {
    expect(messages({ $absent: false }, 1)).toEqual([])
    expect(messages({ $absent: false }, undefined)).toEqual(['$.v: expected a value, but it is absent'])
    expect(messages({ $exists: false }, undefined)).toEqual([])
    expect(messages({ $exists: false }, 0)).toEqual(['$.v: expected no value, got 0'])
  })

  it('operators on a missing key say it is absent', () => {
    expect(messages({ $type: 'string', $minLength: 1 }, undefined)).toEqual(['$.v: expected $type "string", $minLength 1, but it is absent'])
  })

  it('several operators all apply', () => {
    expect(messages({ $type: 'string', $minLength: 3 }, 'ab')).toEqual(['$.v: expected a length of at least 3, got 2'])
  })

  it('$sameAs compares deeply', () => {
    expect(messages({ $sameAs: 'steps.create.obj' }, { a: [1, 2] })).toEqual([])
  })
})

describe('subset and exact matching', () => {
  it('mappings match as a subset by default, at any depth', () => {
    expect(matchValue({ data: { a: 1 } }, { data: { a: 1, b: 2 }, extra: true }, options)).toEqual([])
  })

  it('match: exact refuses keys the expectation does not name, at any depth', () => {
    expect(matchValue({ data: { a: 1 } }, { data: { a: 1, b: 2 } }, exact).map((m) => `${m.path}: ${m.message}`)).toEqual([
      '$.data.b: unexpected key "b" (match: exact)',
    ])
    expect(matchValue({ a: { $absent: true }, b: 1 }, { b: 1 }, exact)).toEqual([])
  })

  it('lists match item by item and in order, with their length', () => {
    expect(matchValue([1, 2], [1, 2], options)).toEqual([])
    expect(matchValue([1, 2], [2, 1], options).map((m) => m.path)).toEqual(['$[0]', '$[1]'])
    expect(matchValue([1], [1, 2], options).map((m) => m.message)).toEqual(['expected a list of 1 item, got 2 items'])
  })

  it('scalars match strictly: a number is not its text', () => {
    expect(matchValue({ n: 1 }, { n: '1' }, options).map((m) => m.message)).toEqual(['expected 1, got "1"'])
    expect(matchValue({ n: 'x' }, {}, options).map((m) => m.message)).toEqual(['expected "x", but it is absent'])
    expect(matchValue({ n: { a: 1 } }, { n: 'str' }, options).map((m) => m.message)).toEqual(['expected a mapping, got "str"'])
  })

  it('paths with odd keys are quoted', () => {
    expect(matchValue({ 'deprecated-status': 'x', 'a b': 1 }, {}, options).map((m) => m.path)).toEqual(['$.deprecated-status', "$['a b']"])
  })

  it('a matching expectation is always found to match (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(matchValue(value, value, exact).filter(() => !containsDollarKeys(value))).toEqual([])
      }),
      { numRuns: 300 },
    )
  })
})

describe('status and headers', () => {
  const observed = { status: 204, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: null }
  const check = (expectation: Parameters<typeof checkExpectation>[0]) =>
    checkExpectation(expectation, observed, options.resolveReference).map((m) => `${m.path}: ${m.message}`)

  it('status: a number, a list, a matcher, or numeric text from a --var', () => {
    expect(check({ status: 204 })).toEqual([])
    expect(check({ status: 200 })).toEqual(['status: expected 200, got 204'])
    expect(check({ status: [200, 204] })).toEqual([])
    expect(check({ status: [200, 201] })).toEqual(['status: expected one of [200,201], got 204'])
    expect(check({ status: { $gte: 200, $lt: 300 } })).toEqual([])
    expect(check({ status: { $in: [400] } })).toEqual(['status: expected one of [400], got 204'])
    expect(check({ status: '204' })).toEqual([])
  })

  it('header names are case-insensitive; values take matchers', () => {
    expect(check({ headers: { 'Content-Type': 'application/json', 'CACHE-CONTROL': { $regex: 'no-store' } } })).toEqual([])
    expect(check({ headers: { 'X-Missing': { $absent: true } } })).toEqual([])
    expect(check({ headers: { 'Content-Type': 'text/xml', Location: '/x' } })).toEqual([
      'headers.Content-Type: expected "text/xml", got "application/json"',
      'headers.Location: expected "/x", but it is absent',
    ])
  })

  it('body null is matched literally', () => {
    expect(check({ body: null })).toEqual([])
    expect(check({ body: { a: 1 } })).toEqual(['$: expected a mapping, got null'])
  })
})

function containsDollarKeys(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(containsDollarKeys)
  if (typeof value === 'object' && value !== null) return Object.entries(value).some(([k, v]) => k.startsWith('$') || containsDollarKeys(v))
  return false
}
