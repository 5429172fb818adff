/**
 * Where two answers to the same request differ: status, error text, field set, field values. Values that
 * vary per run (ids, tokens, times) are normalised first; values the translation maps are equal.
 */
import { formatJsonPath, type JsonPath } from '../../scenario/shared.ts'
import { isClockNumber, volatility } from '../volatile.ts'

type DifferenceKind = 'status' | 'errors' | 'missing-field' | 'extra-field' | 'value' | 'body'

export interface Difference {
  kind: DifferenceKind
  /** `$.data.ttl`, or `status`. */
  path: string
  upstream?: unknown
  doppel?: unknown
}

export interface Answer {
  status: number
  /** Parsed JSON, or the text; undefined for an empty body. */
  body: unknown
}

/** `sameValue(upstream, doppel)` says whether two strings are the same value (after translation). */
export function differences(upstream: Answer, doppel: Answer, sameValue: (upstream: string, doppel: string) => boolean): Difference[] {
  const found: Difference[] = []
  if (upstream.status !== doppel.status) found.push({ kind: 'status', path: 'status', upstream: upstream.status, doppel: doppel.status })
  const upErrors = errorsOf(upstream.body)
  const emuErrors = errorsOf(doppel.body)
  if (upErrors || emuErrors) {
    if (JSON.stringify(upErrors) !== JSON.stringify(emuErrors)) found.push({ kind: 'errors', path: '$.errors', upstream: upErrors, doppel: emuErrors })
    return found
  }
  const walk = (a: unknown, b: unknown, path: JsonPath): void => {
    if (isObject(a) && isObject(b)) {
      for (const key of Object.keys(a)) {
        if (!Object.hasOwn(b, key)) found.push({ kind: 'missing-field', path: formatJsonPath([...path, key]), upstream: a[key] })
        else walk(a[key], b[key], [...path, key])
      }
      for (const key of Object.keys(b)) if (!Object.hasOwn(a, key)) found.push({ kind: 'extra-field', path: formatJsonPath([...path, key]), doppel: b[key] })
      return
    }
    if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
      a.forEach((item, index) => walk(item, b[index], [...path, index]))
      return
    }
    if (typeof a === 'string' && typeof b === 'string') {
      if (a === b || sameValue(a, b)) return
      const key = path.at(-1)
      const kind = volatility(key, a)
      if (kind !== 'stable' && kind === volatility(key, b)) return
    } else if (typeof a === 'number' && typeof b === 'number' && isClockNumber(path.at(-1))) return
    else if (JSON.stringify(a) === JSON.stringify(b)) return
    found.push({ kind: path.length === 0 ? 'body' : 'value', path: formatJsonPath(path), upstream: a, doppel: b })
  }
  walk(upstream.body, doppel.body, [])
  return found
}

function errorsOf(body: unknown): unknown[] | undefined {
  return isObject(body) && Array.isArray(body.errors) ? body.errors : undefined
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value)
}
