import type { ValuePath } from './glossary.ts'

/**
 * The JSON Schema subset the shipped schemas use: `$ref` (local `#/$defs/...` and sibling files),
 * `type`, `enum`, `const`, `properties`, `required`, `additionalProperties`, `patternProperties`,
 * `propertyNames`, `items`, `minItems`, `minProperties`, `minimum`, `maximum`, `minLength`, `pattern`,
 * `anyOf`, `oneOf`, plus the editor extension `errorMessage`. Annotations are ignored.
 */
export interface JsonSchema {
  $ref?: string
  $defs?: Record<string, JsonSchema>
  type?: JsonType | JsonType[]
  enum?: unknown[]
  const?: unknown
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean | JsonSchema
  patternProperties?: Record<string, JsonSchema>
  propertyNames?: JsonSchema
  items?: JsonSchema
  minItems?: number
  minProperties?: number
  minimum?: number
  maximum?: number
  minLength?: number
  pattern?: string
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  errorMessage?: string
  [annotation: string]: unknown
}

export type JsonType = 'null' | 'boolean' | 'object' | 'array' | 'number' | 'integer' | 'string'

export interface SchemaIssue {
  path: ValuePath
  message: string
  /** Whether the issue is about a key (unknown key) rather than its value. */
  at: 'key' | 'value'
}

/** Schema documents by file name, so `$ref: fixture.schema.json#/$defs/x` resolves. */
export type SchemaRegistry = Record<string, JsonSchema>

interface Context {
  registry: SchemaRegistry
  document: string
}

/** Validates `value` against the schema `document` of `registry`; returns every issue found. */
export function validateAgainstSchema(value: unknown, registry: SchemaRegistry, document: string, pointer = ''): SchemaIssue[] {
  const context: Context = { registry, document }
  const [schema, resolved] = pointer ? resolve(`#${pointer}`, context) : [registry[document]!, context]
  return check(value, schema, [], resolved)
}

function check(value: unknown, schema: JsonSchema | boolean, path: ValuePath, context: Context): SchemaIssue[] {
  if (schema === true) return []
  if (schema === false) return [{ path, message: 'is not allowed here', at: 'value' }]
  if (schema.$ref) {
    const [target, targetContext] = resolve(schema.$ref, context)
    return withMessage(schema, path, check(value, target, path, targetContext))
  }
  return withMessage(schema, path, checkSchema(value, schema, path, context))
}

function withMessage(schema: JsonSchema, path: ValuePath, issues: SchemaIssue[]): SchemaIssue[] {
  if (issues.length === 0 || schema.errorMessage === undefined) return issues
  return [{ path, message: schema.errorMessage, at: 'value' }]
}

function checkSchema(value: unknown, schema: JsonSchema, path: ValuePath, context: Context): SchemaIssue[] {
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type]
    if (!types.some((type) => hasType(value, type))) {
      return [{ path, message: `must be ${describeTypes(types)}, not ${describeValueType(value)}`, at: 'value' }]
    }
  }
  if (schema.const !== undefined && !sameValue(schema.const, value)) {
    return [{ path, message: `must be ${JSON.stringify(schema.const)}`, at: 'value' }]
  }
  if (schema.enum && !schema.enum.some((option) => sameValue(option, value))) {
    return [{ path, message: `must be one of: ${schema.enum.map((o) => String(o)).join(', ')} (got ${JSON.stringify(value)})`, at: 'value' }]
  }
  const issues: SchemaIssue[] = []
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) {
      issues.push({ path, message: schema.minLength === 1 ? 'must not be empty' : `must be at least ${schema.minLength} characters long`, at: 'value' })
    }
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) {
      issues.push({ path, message: `must match ${schema.pattern}`, at: 'value' })
    }
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) issues.push({ path, message: `must be at least ${schema.minimum}`, at: 'value' })
    if (schema.maximum !== undefined && value > schema.maximum) issues.push({ path, message: `must be at most ${schema.maximum}`, at: 'value' })
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) {
      issues.push({ path, message: `must have at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`, at: 'value' })
    }
    if (schema.items !== undefined) value.forEach((item, i) => issues.push(...check(item, schema.items!, [...path, i], context)))
  }
  if (isObject(value)) issues.push(...checkObject(value, schema, path, context))
  if (schema.anyOf) issues.push(...checkAlternatives(value, schema.anyOf, path, context))
  if (schema.oneOf) issues.push(...checkOneOf(value, schema.oneOf, path, context))
  return issues
}

function checkObject(value: Record<string, unknown>, schema: JsonSchema, path: ValuePath, context: Context): SchemaIssue[] {
  const issues: SchemaIssue[] = []
  const keys = Object.keys(value)
  for (const key of schema.required ?? []) {
    if (!(key in value)) issues.push({ path, message: `missing required key "${key}"`, at: 'value' })
  }
  if (schema.minProperties !== undefined && keys.length < schema.minProperties) {
    issues.push({ path, message: schema.minProperties === 1 ? 'must not be empty' : `must have at least ${schema.minProperties} keys`, at: 'value' })
  }
  const patterns = Object.entries(schema.patternProperties ?? {}).map(([p, s]) => [new RegExp(p, 'u'), s] as const)
  for (const key of keys) {
    const keyPath = [...path, key]
    if (schema.propertyNames) {
      const nameIssues = check(key, schema.propertyNames, keyPath, context)
      if (nameIssues.length > 0) {
        issues.push({ path: keyPath, message: `key "${key}" ${nameIssues[0]!.message}`, at: 'key' })
        continue
      }
    }
    let matched = false
    const property = schema.properties?.[key]
    if (property !== undefined && Object.hasOwn(schema.properties!, key)) {
      matched = true
      issues.push(...check(value[key], property, keyPath, context))
    }
    for (const [pattern, patternSchema] of patterns) {
      if (!pattern.test(key)) continue
      matched = true
      issues.push(...check(value[key], patternSchema, keyPath, context))
    }
    if (matched || schema.additionalProperties === undefined || schema.additionalProperties === true) continue
    if (schema.additionalProperties === false) {
      issues.push({ path: keyPath, message: `unknown key "${key}"${suggest(key, Object.keys(schema.properties ?? {}))}`, at: 'key' })
    } else {
      issues.push(...check(value[key], schema.additionalProperties, keyPath, context))
    }
  }
  return issues
}

/** anyOf: the value passes when one branch passes; otherwise the closest branch explains why. */
function checkAlternatives(value: unknown, branches: JsonSchema[], path: ValuePath, context: Context): SchemaIssue[] {
  const results = branches.map((branch) => check(value, branch, path, context))
  if (results.some((issues) => issues.length === 0)) return []
  const candidates = results.filter((_, i) => acceptsType(branches[i]!, value, context))
  if (candidates.length === 0) {
    const types = [...new Set(branches.flatMap((branch) => declaredTypes(branch, context)))]
    return [{ path, message: `must be ${describeTypes(types)}, not ${describeValueType(value)}`, at: 'value' }]
  }
  return candidates.reduce((best, issues) => (issues.length < best.length ? issues : best))
}

function checkOneOf(value: unknown, branches: JsonSchema[], path: ValuePath, context: Context): SchemaIssue[] {
  const resolved = branches.map((branch) => (branch.$ref ? resolve(branch.$ref, context)[0] : branch))
  const requiredOnly = resolved.every((b) => b.required?.length === 1 && Object.keys(b).every((k) => k === 'required' || k === 'description'))
  if (requiredOnly && isObject(value)) {
    const names = resolved.map((b) => b.required![0]!)
    const present = names.filter((name) => name in value)
    if (present.length === 1) return []
    const found = present.length === 0 ? 'found none' : `found ${present.map((n) => `"${n}"`).join(' and ')}`
    return [{ path, message: `must have exactly one of: ${names.join(', ')} (${found})`, at: 'value' }]
  }
  return checkAlternatives(value, branches, path, context)
}

function resolve(ref: string, context: Context): [JsonSchema, Context] {
  const [file, pointer = ''] = ref.split('#')
  const document = file ? file.replace(/^\.\//, '') : context.document
  let node: unknown = context.registry[document]
  if (node === undefined) throw new Error(`Failed to resolve schema reference "${ref}": no document "${document}"`)
  for (const part of pointer.split('/').filter(Boolean)) {
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')]
    if (node === undefined) throw new Error(`Failed to resolve schema reference "${ref}"`)
  }
  return [node as JsonSchema, { registry: context.registry, document }]
}

function declaredTypes(schema: JsonSchema, context: Context): JsonType[] {
  if (schema.$ref) {
    const [target, targetContext] = resolve(schema.$ref, context)
    return declaredTypes(target, targetContext)
  }
  if (schema.type !== undefined) return Array.isArray(schema.type) ? schema.type : [schema.type]
  const branches = schema.anyOf ?? schema.oneOf
  if (branches) return branches.flatMap((branch) => declaredTypes(branch, context))
  return []
}

function acceptsType(schema: JsonSchema, value: unknown, context: Context): boolean {
  const types = declaredTypes(schema, context)
  return types.length === 0 || types.some((type) => hasType(value, type))
}

function hasType(value: unknown, type: JsonType): boolean {
  switch (type) {
    case 'null':
      return value === null
    case 'boolean':
      return typeof value === 'boolean'
    case 'object':
      return isObject(value)
    case 'array':
      return Array.isArray(value)
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value)
    case 'string':
      return typeof value === 'string'
  }
}

const ARTICLE: Record<JsonType, string> = {
  null: 'null',
  boolean: 'a boolean',
  object: 'a mapping',
  array: 'a list',
  number: 'a number',
  integer: 'an integer',
  string: 'a string',
}

function describeTypes(types: JsonType[]): string {
  const words = types.map((type) => ARTICLE[type])
  return words.length <= 1 ? (words[0] ?? 'something else') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`
}

function describeValueType(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'a mapping'
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number'
  return `a ${typeof value}`
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/** ` (did you mean "expect"?)` when a known key is within two edits of the typo, or extends it. */
function suggest(key: string, known: string[]): string {
  let best: string | undefined
  let bestDistance = 3
  const lower = key.toLowerCase()
  for (const candidate of known) {
    const other = candidate.toLowerCase()
    // A truncated or over-long name is as good a hint as a typo.
    const prefix = lower.length >= 3 && other.length >= 3 && (other.startsWith(lower) || lower.startsWith(other))
    const distance = prefix ? 1 : editDistance(lower, other)
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  return best === undefined ? '' : ` (did you mean "${best}"?)`
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1))
      previous = current
    }
  }
  return row[b.length]!
}
