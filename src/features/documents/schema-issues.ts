import type { ErrorObject } from 'ajv'
import type { ValuePath } from './glossary.ts'
import { suggestKey } from '../../core/did-you-mean.ts'
import type { CompiledSchemas } from './schema-compiler.ts'
import type { JsonSchema, JsonType, SchemaIssue } from './schema-validator.ts'

/**
 * The issues of `value` (found at `path`) against `schema`, one sentence each. ajv decides validity and
 * reports every failed keyword; this turns its flat list into what a person fixes: one sentence for a
 * schema with `errorMessage`, only the type when the type is wrong, and for `anyOf`/`oneOf` the branch that
 * came closest (each branch re-checked alone) instead of every branch's complaints.
 */
export function explain(schemas: CompiledSchemas, schema: JsonSchema | boolean, value: unknown, path: ValuePath): SchemaIssue[] {
  if (schema === true) return []
  if (schema === false) return [{ path, message: 'is not allowed here', at: 'value' }]
  const validate = schemas.validator(schema)
  if (validate(value)) return []
  return new Explanation(schemas, value, path).describe(validate.errors ?? [])
}

/**
 * The errors at a JSON pointer or below it (and a few beside it, such as `/a/b-1` for `/a/b`, which the
 * caller's scope check leaves out), found by binary search over the errors sorted by pointer: each anchor
 * looks at its own part of the document, not at every error (80,000 bad entries took minutes that way).
 */
function errorsWithin(errors: readonly ErrorObject[]): (pointer: string) => ErrorObject[] {
  const sorted = [...errors].sort((a, b) => (a.instancePath < b.instancePath ? -1 : a.instancePath > b.instancePath ? 1 : 0))
  const firstAtOrAfter = (text: string) => {
    let low = 0
    let high = sorted.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (sorted[middle]!.instancePath < text) low = middle + 1
      else high = middle
    }
    return low
  }
  // "0" follows "/": every pointer below `pointer` sorts before `${pointer}0`.
  return (pointer) => sorted.slice(firstAtOrAfter(pointer), firstAtOrAfter(`${pointer}0`))
}

/** One schema's errors at one place in the value, and the rule that summarises them. */
interface Anchor {
  kind: 'message' | 'type' | 'const' | 'enum' | 'anyOf' | 'oneOf' | 'propertyName'
  schema: JsonSchema
  errors: ErrorObject[]
  pointer: string
  data: unknown
  /** For `propertyName`: the refused key. */
  key?: string
}

interface Ordered {
  issue: SchemaIssue
  /** Where the issue sorts: its own path, or for an anyOf/oneOf's issues the combinator's path. */
  position: ValuePath
  /** anyOf/oneOf issues come after the issues inside the value, as they are checked last, in their own order. */
  late: boolean
  order: number
}

class Explanation {
  #schemas: CompiledSchemas
  #value: unknown
  #base: ValuePath

  constructor(schemas: CompiledSchemas, value: unknown, base: ValuePath) {
    this.#schemas = schemas
    this.#value = value
    this.#base = base
  }

  describe(errors: ErrorObject[]): SchemaIssue[] {
    const consumed = new Set<ErrorObject>()
    const issues: Ordered[] = []
    const within = errorsWithin(errors)
    for (const anchor of this.#anchors(errors)) {
      if (anchor.errors.every((error) => consumed.has(error))) continue
      const scope = this.#scope(anchor)
      for (const error of within(anchor.pointer)) if (scope(error)) consumed.add(error)
      const late = anchor.kind === 'anyOf' || anchor.kind === 'oneOf'
      const position = this.#path(anchor.pointer)
      for (const issue of this.#summarise(anchor)) issues.push({ issue, position: late ? position : issue.path, late, order: issues.length })
    }
    for (const error of errors) {
      if (consumed.has(error)) continue
      const issue = this.#leaf(error)
      issues.push({ issue, position: issue.path, late: false, order: issues.length })
    }
    return issues.sort((a, b) => this.#compare(a, b) || a.order - b.order).map(({ issue }) => issue)
  }

  /** Schemas whose failure is summarised in one sentence, outermost first. */
  #anchors(errors: ErrorObject[]): Anchor[] {
    const groups = new Map<unknown, Map<string, ErrorObject[]>>()
    for (const error of errors) {
      const byPointer = groups.get(error.parentSchema) ?? new Map<string, ErrorObject[]>()
      groups.set(error.parentSchema, byPointer)
      byPointer.set(error.instancePath, [...(byPointer.get(error.instancePath) ?? []), error])
    }
    const anchors: Anchor[] = []
    for (const [parent, byPointer] of groups) {
      if (typeof parent !== 'object' || parent === null) continue
      const schema = parent as JsonSchema
      for (const [pointer, group] of byPointer) {
        const data = group[0]!.data
        const has = (keyword: string) => group.some((error) => error.keyword === keyword)
        const kind =
          schema.errorMessage !== undefined ? 'message' : (['type', 'const', 'enum', 'anyOf', 'oneOf'] as const).find(has)
        // A wrong type, const or enum, or an errorMessage, stands for all of the schema's keywords; a
        // combinator only for itself, beside the schema's other keywords.
        const own = kind === 'anyOf' || kind === 'oneOf' ? group.filter((error) => error.keyword === kind) : group
        if (kind) anchors.push({ kind, schema, errors: own, pointer, data })
        for (const error of group) {
          if (error.keyword !== 'propertyNames') continue
          const key = String(error.params.propertyName)
          anchors.push({ kind: 'propertyName', schema, errors: [error], pointer, data: key, key })
        }
      }
    }
    const depth = (pointer: string) => (pointer === '' ? 0 : pointer.split('/').length)
    return anchors.sort((a, b) => depth(a.pointer) - depth(b.pointer) || this.#schemas.reach(b.schema).size - this.#schemas.reach(a.schema).size)
  }

  /** Which of ajv's errors an anchor's sentence stands for. */
  #scope(anchor: Anchor): (error: ErrorObject) => boolean {
    const inside = (error: ErrorObject, pointer: string) => error.instancePath === pointer || error.instancePath.startsWith(`${pointer}/`)
    if (anchor.kind === 'propertyName') {
      const keyPointer = `${anchor.pointer}/${escapePointer(anchor.key!)}`
      return (error) =>
        anchor.errors.includes(error) ||
        (error.instancePath === anchor.pointer && (error.propertyName === anchor.key || error.params.additionalProperty === anchor.key)) ||
        inside(error, keyPointer)
    }
    const reach = new Set<unknown>()
    if (anchor.kind === 'anyOf' || anchor.kind === 'oneOf') {
      for (const branch of anchor.schema[anchor.kind]!) for (const schema of this.#schemas.reach(branch)) reach.add(schema)
    } else {
      for (const schema of this.#schemas.reach(anchor.schema)) reach.add(schema)
    }
    return (error) => anchor.errors.includes(error) || (inside(error, anchor.pointer) && reach.has(error.parentSchema))
  }

  #summarise(anchor: Anchor): SchemaIssue[] {
    const path = this.#path(anchor.pointer)
    const { schema, data } = anchor
    switch (anchor.kind) {
      case 'message':
        return [{ path, message: schema.errorMessage!, at: 'value' }]
      case 'type':
        return [{ path, message: `must be ${describeTypes(typesOf(schema))}, not ${describeValueType(data)}`, at: 'value' }]
      case 'const':
        return [{ path, message: `must be ${JSON.stringify(schema.const)}`, at: 'value' }]
      case 'enum':
        return [{ path, message: `must be one of: ${schema.enum!.map((o) => String(o)).join(', ')} (got ${JSON.stringify(data)})`, at: 'value' }]
      case 'propertyName': {
        const keyPath = [...path, anchor.key!]
        const [first] = explain(this.#schemas, schema.propertyNames!, anchor.key, keyPath)
        return first ? [{ path: keyPath, message: `key "${anchor.key}" ${first.message}`, at: 'key' }] : []
      }
      case 'oneOf':
        return this.#oneOf(schema, data, path)
      case 'anyOf':
        return this.#closest(schema.anyOf!, data, path)
    }
  }

  /** oneOf of `{required: [name]}` branches is "exactly one of these keys"; any other oneOf reads as anyOf. */
  #oneOf(schema: JsonSchema, data: unknown, path: ValuePath): SchemaIssue[] {
    const branches = schema.oneOf!
    const resolved = branches.map((branch) => (typeof branch === 'object' && branch.$ref ? this.#schemas.resolve(branch.$ref, branch) : branch))
    const requiredOnly = resolved.every(
      (b) => typeof b === 'object' && b.required?.length === 1 && Object.keys(b).every((k) => k === 'required' || k === 'description'),
    )
    if (requiredOnly && isObject(data)) {
      const names = resolved.map((b) => (b as JsonSchema).required![0]!)
      const present = names.filter((name) => name in data)
      if (present.length === 1) return []
      const found = present.length === 0 ? 'found none' : `found ${present.map((n) => `"${n}"`).join(' and ')}`
      return [{ path, message: `must have exactly one of: ${names.join(', ')} (${found})`, at: 'value' }]
    }
    return this.#closest(branches, data, path)
  }

  /** The value passes when one branch passes; otherwise the closest branch of the right type explains why. */
  #closest(branches: (JsonSchema | boolean)[], data: unknown, path: ValuePath): SchemaIssue[] {
    const results = branches.map((branch) => explain(this.#schemas, branch, data, path))
    if (results.some((issues) => issues.length === 0)) return []
    const candidates = results.filter((_, i) => this.#acceptsType(branches[i]!, data))
    if (candidates.length === 0) {
      const types = [...new Set(branches.flatMap((branch) => this.#declaredTypes(branch)))]
      return [{ path, message: `must be ${describeTypes(types)}, not ${describeValueType(data)}`, at: 'value' }]
    }
    return candidates.reduce((best, issues) => (issues.length < best.length ? issues : best))
  }

  #declaredTypes(schema: JsonSchema | boolean, depth = 0): JsonType[] {
    if (typeof schema === 'boolean' || depth > 32) return []
    if (schema.$ref) return this.#declaredTypes(this.#schemas.resolve(schema.$ref, schema), depth + 1)
    if (schema.type !== undefined) return typesOf(schema)
    const branches = schema.anyOf ?? schema.oneOf
    return branches ? branches.flatMap((branch) => this.#declaredTypes(branch, depth + 1)) : []
  }

  #acceptsType(schema: JsonSchema | boolean, value: unknown): boolean {
    const types = this.#declaredTypes(schema)
    return types.length === 0 || types.some((type) => hasType(value, type))
  }

  /** One failed keyword that no summary covers. */
  #leaf(error: ErrorObject): SchemaIssue {
    const path = this.#path(error.instancePath)
    const schema = (error.parentSchema ?? {}) as JsonSchema
    const limit = error.params.limit as number
    switch (error.keyword) {
      case 'required':
        return { path, message: `missing required key "${String(error.params.missingProperty)}"`, at: 'value' }
      case 'additionalProperties': {
        const key = String(error.params.additionalProperty)
        return { path: [...path, key], message: `unknown key "${key}"${suggestKey(key, Object.keys(schema.properties ?? {}))}`, at: 'key' }
      }
      case 'minProperties':
        return { path, message: limit === 1 ? 'must not be empty' : `must have at least ${limit} keys`, at: 'value' }
      case 'minLength':
        return { path, message: limit === 1 ? 'must not be empty' : `must be at least ${limit} characters long`, at: 'value' }
      case 'pattern':
        return { path, message: `must match ${String(error.params.pattern)}`, at: 'value' }
      case 'minimum':
        return { path, message: `must be at least ${limit}`, at: 'value' }
      case 'maximum':
        return { path, message: `must be at most ${limit}`, at: 'value' }
      case 'minItems':
        return { path, message: `must have at least ${limit} item${limit === 1 ? '' : 's'}`, at: 'value' }
      case 'false schema':
        return { path, message: 'is not allowed here', at: 'value' }
      default:
        return { path, message: error.message ?? 'is not valid', at: 'value' }
    }
  }

  /** ajv's JSON pointer as the value path messages and line lookups use (list indexes as numbers). */
  #path(pointer: string): ValuePath {
    const path: ValuePath = [...this.#base]
    let node = this.#value
    for (const raw of pointer.split('/').slice(1)) {
      const part = raw.replace(/~1/g, '/').replace(/~0/g, '~')
      const segment = Array.isArray(node) ? Number(part) : part
      path.push(segment)
      node = (node as Record<string | number, unknown> | undefined)?.[segment]
    }
    return path
  }

  /** Each mapping's keys by their place in it, made once: a sort compares keys of one mapping many times. */
  #keyOrders = new WeakMap<object, Map<string, number>>()

  #keyOrder(node: unknown): Map<string, number> {
    if (!isObject(node)) return new Map()
    let order = this.#keyOrders.get(node)
    if (order === undefined) {
      order = new Map(Object.keys(node).map((key, index) => [key, index]))
      this.#keyOrders.set(node, order)
    }
    return order
  }

  /** Document order: keys as the file lists them, a mapping's own issues before its contents'. */
  #compare(a: Ordered, b: Ordered): number {
    const base = this.#base.length
    let node = this.#value
    for (let i = base; i < Math.min(a.position.length, b.position.length); i++) {
      const x = a.position[i]!
      const y = b.position[i]!
      if (x !== y) {
        if (typeof x === 'number' && typeof y === 'number') return x - y
        const order = this.#keyOrder(node)
        return (order.get(String(x)) ?? -1) - (order.get(String(y)) ?? -1)
      }
      node = (node as Record<string | number, unknown> | undefined)?.[x]
    }
    if (a.position.length === b.position.length) return Number(a.late) - Number(b.late)
    const shorter = a.position.length < b.position.length ? a : b
    const sign = shorter.late ? 1 : -1
    return shorter === a ? sign : -sign
  }
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1')
}

function typesOf(schema: JsonSchema): JsonType[] {
  return Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type]
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
