import type { Mismatch, Observed } from '../glossary.ts'
import { isMatcherObject, matchValue, show, type MatchOptions } from './matchers.ts'

/** `expect` (or `retry.until`) after templating. */
export interface Expectation {
  status?: unknown
  headers?: Record<string, unknown>
  body?: unknown
  match?: 'subset' | 'exact'
}

/** Every way the observed result differs from the expectation; empty when it matches. */
export function checkExpectation(expectation: Expectation, observed: Observed, resolveReference: MatchOptions['resolveReference']): Mismatch[] {
  const options: MatchOptions = { exact: expectation.match === 'exact', resolveReference }
  const out: Mismatch[] = []
  // A templated status from --var arrives as text.
  const expected = typeof expectation.status === 'string' && /^\d{3}$/.test(expectation.status) ? Number(expectation.status) : expectation.status
  if (typeof expected === 'number' && observed.status !== expected) {
    out.push({ path: 'status', message: `expected ${expected}, got ${observed.status}` })
  } else if (Array.isArray(expected) && !expected.includes(observed.status)) {
    out.push({ path: 'status', message: `expected one of ${show(expected)}, got ${observed.status}` })
  } else if (isMatcherObject(expected)) {
    out.push(...matchValue(expected, observed.status, options).map((m) => ({ ...m, path: 'status' })))
  } else if (expected !== undefined && typeof expected !== 'number' && !Array.isArray(expected)) {
    out.push({ path: 'status', message: `expected ${show(expected)}, got ${observed.status}` })
  }
  for (const [name, value] of Object.entries(expectation.headers ?? {})) {
    const actual = observed.headers[name.toLowerCase()]
    const where = `headers.${name}`
    out.push(...matchValue(value, actual, { ...options, exact: false }, [], actual !== undefined).map((m) => ({ ...m, path: where })))
  }
  if ('body' in expectation) out.push(...matchValue(expectation.body, observed.body, options))
  return out
}
