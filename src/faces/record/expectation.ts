/**
 * A recorded response as an `expect` block: literal where the service is deterministic, matchers where a
 * value varies per run (captured on first sight, `$sameAs` after), templates where a value came from an
 * earlier step.
 */
import { literalJson, literalText } from '../../features/documents/index.ts'
import { formatJsonPath, type JsonPath } from '../scenario/shared.ts'
import { header, isText, jsonBody, type Exchange } from './exchange.ts'
import type { Refs } from './refs.ts'
import { hasSecretPair } from './secrets.ts'
import { isClockNumber, TIME_MATCHER, volatility } from './volatile.ts'

export interface RecordedExpectation {
  expect: Record<string, unknown>
  capture: Record<string, string>
}

const GENERATED_MATCHER = { $type: 'string', $minLength: 1 }

/** Builds the expectation of step `stepId`, registering its generated values as captures in `refs`. */
export function expectationOf(exchange: Exchange, stepId: string, refs: Refs): RecordedExpectation {
  const capture: Record<string, string> = {}
  const expect: Record<string, unknown> = { status: exchange.status }
  const contentType = header(exchange.responseHeaders, 'content-type')
  const json = jsonBody(exchange.responseBody)
  const headers: Record<string, unknown> = {}
  if (contentType) headers['Content-Type'] = { $regex: `^${contentType.split(';')[0]!.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}` }
  for (const name of ['Location', 'X-Terraform-Get']) {
    const value = header(exchange.responseHeaders, name)
    // An absolute URL names the recorded host, a signed one holds a secret: its shape is all that replays.
    if (value !== undefined) headers[name] = value.includes('://') || hasSecretPair(value) ? { $type: 'string', $minLength: 1 } : refs.template(value)
  }
  if (Object.keys(headers).length > 0) expect.headers = headers
  if (json !== undefined) {
    const walk = (value: unknown, path: JsonPath): unknown => {
      if (typeof value === 'string') {
        if (volatility(undefined, value) === 'time') return TIME_MATCHER
        const ref = refs.get(value)
        // A value repeated within this answer cannot refer to this step's own capture yet.
        if (ref?.sameAs?.startsWith(`steps.${stepId}.`)) return GENERATED_MATCHER
        if (ref) return ref.sameAs ? { $sameAs: ref.sameAs } : ref.template
        const kind = volatility(path.at(-1), value)
        if (kind === 'time') return TIME_MATCHER
        if (kind === 'generated') {
          const name = captureName(path, capture)
          capture[name] = formatJsonPath(path)
          refs.add(value, { template: `\${{ steps.${stepId}.${name} }}`, sameAs: `steps.${stepId}.${name}` })
          return GENERATED_MATCHER
        }
        const templated = refs.template(value)
        // A string embedding a value this same answer generated cannot refer to its capture yet.
        return templated.includes(`steps.${stepId}.`) ? { $type: 'string' } : templated
      }
      // Epoch times, and a token's remaining life, which counts down between the recording and a replay.
      if (typeof value === 'number' && isClockNumber(path.at(-1))) return { $type: 'number', $gte: 0 }
      if (Array.isArray(value)) return value.map((item, index) => walk(item, [...path, index]))
      if (value && typeof value === 'object') {
        // `$` keys would read as matchers: such an object is compared literally.
        if (Object.keys(value).some((key) => key.startsWith('$'))) return { $eq: literalJson(value) }
        return Object.fromEntries(Object.entries(value).map(([key, item]) => [literalText(key), walk(item, [...path, key])]))
      }
      return value
    }
    expect.body = walk(json, [])
    // Error envelopes are pinned whole; other bodies match as a subset, as the format recommends.
    if (isErrorEnvelope(json)) expect.match = 'exact'
  } else if (exchange.responseBody.length > 0 && isText(exchange.responseBody)) {
    expect.body = refs.template(exchange.responseBody.toString('utf8'))
  }
  return { expect, capture }
}

function isErrorEnvelope(json: unknown): boolean {
  return !!json && typeof json === 'object' && !Array.isArray(json) && Object.keys(json).length === 1 && 'errors' in json
}

function captureName(path: JsonPath, taken: Record<string, string>): string {
  const base = String(path.filter((s) => typeof s === 'string').at(-1) ?? 'value').replace(/[^A-Za-z0-9_]/g, '_')
  let name = base
  for (let n = 2; Object.hasOwn(taken, name); n++) name = `${base}_${n}`
  return name
}
