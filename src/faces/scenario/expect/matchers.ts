import { parseDuration } from '../../../core/duration.ts'
import type { Mismatch } from '../glossary.ts'
import { formatJsonPath, type JsonPath } from '../expressions/json-path.ts'

/** The closed set of `$` operators an expectation may use. */
export const MATCHERS = [
  '$eq',
  '$ne',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$in',
  '$regex',
  '$type',
  '$minLength',
  '$length',
  '$contains',
  '$each',
  '$absent',
  '$exists',
  '$duration',
  '$sameAs',
] as const

type MatcherName = (typeof MATCHERS)[number]

/** What `$type` accepts. */
export const TYPE_NAMES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const

export interface MatchOptions {
  /** `match: exact`: mappings may not have keys the expectation does not name. */
  exact: boolean
  /** The value a `$sameAs` reference (`steps.<id>.<capture>`) points at. */
  resolveReference: (reference: string) => unknown
}

/** True for a mapping made only of `$` operators. */
export function isMatcherObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const keys = Object.keys(value)
  return keys.length > 0 && keys.every((key) => key.startsWith('$'))
}

/**
 * Compares what came back with what was expected. Mappings match as a subset unless `exact`; lists match
 * item by item, in order; operators apply where the expectation holds a `$` mapping.
 */
export function matchValue(expected: unknown, actual: unknown, options: MatchOptions, path: JsonPath = [], present = true): Mismatch[] {
  const where = formatJsonPath(path)
  if (isMatcherObject(expected)) return matchOperators(expected, actual, present, options, path)
  if (!present) return [{ path: where, message: `expected ${show(expected)}, but it is absent` }]
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [{ path: where, message: `expected a list, got ${show(actual)}` }]
    const out: Mismatch[] = []
    if (actual.length !== expected.length) {
      out.push({ path: where, message: `expected a list of ${count(expected.length, 'item')}, got ${count(actual.length, 'item')}` })
    }
    const n = Math.min(expected.length, actual.length)
    for (let i = 0; i < n; i++) out.push(...matchValue(expected[i], actual[i], options, [...path, i]))
    return out
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) {
      return [{ path: where, message: `expected a mapping, got ${show(actual)}` }]
    }
    const out: Mismatch[] = []
    const record = actual as Record<string, unknown>
    for (const [key, value] of Object.entries(expected)) {
      out.push(...matchValue(value, record[key], options, [...path, key], Object.hasOwn(record, key)))
    }
    if (options.exact) {
      for (const key of Object.keys(record)) {
        if (!Object.hasOwn(expected, key)) out.push({ path: formatJsonPath([...path, key]), message: `unexpected key "${key}" (match: exact)` })
      }
    }
    return out
  }
  if (expected !== actual) return [{ path: where, message: `expected ${show(expected)}, got ${show(actual)}` }]
  return []
}

function matchOperators(spec: Record<string, unknown>, actual: unknown, present: boolean, options: MatchOptions, path: JsonPath): Mismatch[] {
  const where = formatJsonPath(path)
  const out: Mismatch[] = []
  const fail = (message: string) => out.push({ path: where, message })
  const presence = Object.keys(spec).every((op) => op === '$absent' || op === '$exists')
  if (!present && !presence) {
    if (!('$absent' in spec) && !('$exists' in spec)) return [{ path: where, message: `expected ${describe(spec)}, but it is absent` }]
  }
  for (const [op, operand] of Object.entries(spec)) {
    switch (op as MatcherName) {
      case '$absent':
        if (operand === true && present) fail(`expected no value, got ${show(actual)}`)
        if (operand === false && !present) fail('expected a value, but it is absent')
        break
      case '$exists':
        if (operand === true && !present) fail('expected a value, but it is absent')
        if (operand === false && present) fail(`expected no value, got ${show(actual)}`)
        break
      case '$eq':
        if (!present || !deepEqual(actual, operand)) fail(`expected exactly ${show(operand)}, got ${show(actual)}`)
        break
      case '$ne':
        if (present && deepEqual(actual, operand)) fail(`expected anything but ${show(operand)}`)
        break
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        if (!compare(op, actual, operand)) fail(`expected a value ${COMPARISON[op]} ${show(operand)}, got ${show(actual)}`)
        break
      case '$in':
        if (!Array.isArray(operand) || !operand.some((option) => deepEqual(actual, option))) {
          fail(`expected one of ${show(operand)}, got ${show(actual)}`)
        }
        break
      case '$regex':
        if (typeof actual !== 'string' || !new RegExp(String(operand), 'u').test(actual)) {
          fail(`expected a string matching /${String(operand)}/, got ${show(actual)}`)
        }
        break
      case '$type': {
        const names = (Array.isArray(operand) ? operand : [operand]) as string[]
        if (!names.some((name) => hasType(actual, name))) fail(`expected ${names.map(article).join(' or ')}, got ${typeOf(actual)} ${show(actual)}`)
        break
      }
      case '$minLength': {
        const length = lengthOf(actual)
        if (length === undefined || length < Number(operand)) fail(`expected a length of at least ${String(operand)}, got ${length === undefined ? show(actual) : length}`)
        break
      }
      case '$length': {
        const length = lengthOf(actual)
        if (length !== Number(operand)) fail(`expected a length of ${String(operand)}, got ${length === undefined ? show(actual) : length}`)
        break
      }
      case '$contains':
        if (typeof actual === 'string') {
          if (typeof operand !== 'string' || !actual.includes(operand)) fail(`expected a string containing ${show(operand)}, got ${show(actual)}`)
        } else if (Array.isArray(actual)) {
          // A list operand asks for each of its items: the keys a scenario created, among others on a shared server.
          const subset = { ...options, exact: false }
          for (const wanted of Array.isArray(operand) ? operand : [operand]) {
            if (!actual.some((item) => matchValue(wanted, item, subset).length === 0)) {
              fail(`expected a list with an item matching ${show(wanted)}, got ${show(actual)}`)
            }
          }
        } else {
          fail(`expected a string or a list containing ${show(operand)}, got ${show(actual)}`)
        }
        break
      case '$each':
        if (!Array.isArray(actual)) fail(`expected a list whose every item matches ${show(operand)}, got ${show(actual)}`)
        else actual.forEach((item, i) => out.push(...matchValue(operand, item, options, [...path, i])))
        break
      case '$duration': {
        const want = durationSeconds(operand)
        const got = durationSeconds(actual)
        if (want === undefined || got !== want) fail(`expected a duration of ${String(operand)} (${want ?? '?'} seconds), got ${show(actual)}`)
        break
      }
      case '$sameAs': {
        const reference = String(operand)
        const value = options.resolveReference(reference)
        if (!present || !deepEqual(actual, value)) fail(`expected the same value as ${reference} (${show(value)}), got ${show(actual)}`)
        break
      }
      default:
        fail(`unknown matcher "${op}"`)
    }
  }
  return out
}

const COMPARISON: Record<string, string> = { $gt: 'greater than', $gte: 'greater than or equal to', $lt: 'less than', $lte: 'less than or equal to' }

function compare(op: string, actual: unknown, operand: unknown): boolean {
  const comparable = (typeof actual === 'number' && typeof operand === 'number') || (typeof actual === 'string' && typeof operand === 'string')
  if (!comparable) return false
  const a = actual as number | string
  const b = operand as number | string
  if (op === '$gt') return a > b
  if (op === '$gte') return a >= b
  if (op === '$lt') return a < b
  return a <= b
}

function hasType(value: unknown, name: string): boolean {
  switch (name) {
    case 'string':
      return typeof value === 'string'
    case 'number':
      return typeof value === 'number'
    case 'integer':
      return Number.isInteger(value)
    case 'boolean':
      return typeof value === 'boolean'
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value)
    case 'array':
      return Array.isArray(value)
    case 'null':
      return value === null
    default:
      return false
  }
}

function article(name: string): string {
  if (name === 'null') return 'null'
  if (name === 'object') return 'a mapping'
  if (name === 'array') return 'a list'
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`
}

function typeOf(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'a mapping'
  if (typeof value === 'number' && Number.isInteger(value)) return 'an integer'
  return article(typeof value)
}

function lengthOf(value: unknown): number | undefined {
  if (typeof value === 'string' || Array.isArray(value)) return value.length
  if (typeof value === 'object' && value !== null) return Object.keys(value).length
  return undefined
}

function durationSeconds(value: unknown): number | undefined {
  try {
    if (typeof value !== 'number' && typeof value !== 'string') return undefined
    return parseDuration(value)
  } catch {
    return undefined
  }
}

function describe(spec: Record<string, unknown>): string {
  return Object.entries(spec)
    .map(([op, operand]) => `${op} ${show(operand)}`)
    .join(', ')
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

/** Deep equality of JSON values (mapping key order does not matter). */
function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const other = b as unknown[]
    return a.length === other.length && a.every((item, i) => deepEqual(item, other[i]))
  }
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  return ka.length === kb.length && ka.every((key) => Object.hasOwn(b, key) && deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
}

/** A short JSON rendering for messages. */
export function show(value: unknown): string {
  if (value === undefined) return 'nothing'
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
}
