import type { ValuePath } from './glossary.ts'
import { compileSchemas } from './schema-compiler.ts'
import { explain } from './schema-issues.ts'

/**
 * A JSON Schema (draft 2020-12) as the shipped schemas write it, validated by ajv. `errorMessage` is the
 * editor extension that replaces every problem inside its schema with one sentence.
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
  anyOf?: (JsonSchema | boolean)[]
  oneOf?: (JsonSchema | boolean)[]
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

/** Validates `value` against the schema `document` of `registry`; returns every issue found, in document order. */
export function validateAgainstSchema(value: unknown, registry: SchemaRegistry, document: string): SchemaIssue[] {
  return explain(compileSchemas(registry), registry[document]!, value, [])
}
