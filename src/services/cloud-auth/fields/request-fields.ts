import { toCommaListField, toKvPairsField, toStringListField } from './list-fields.ts'
import { toDurationField } from './duration-field.ts'
import { toHeaderField, type HeaderMap } from './header-field.ts'
import { toBoolField, toIntField, toStringField } from './scalar-fields.ts'

/** The field types a route declares (docs/reference/cloud-auth.md §1.7). */
export type FieldType = 'string' | 'bool' | 'int' | 'duration' | 'commaList' | 'stringList' | 'kvPairs' | 'header'

export type FieldSchema = Readonly<Record<string, FieldType>>

const CONVERTERS: Record<FieldType, (value: unknown, name: string) => unknown> = {
  string: toStringField,
  bool: toBoolField,
  int: toIntField,
  duration: toDurationField,
  commaList: toCommaListField,
  stringList: toStringListField,
  kvPairs: toKvPairsField,
  header: toHeaderField,
}

/**
 * The converted fields of one request. Every field of the schema present in the data is converted up
 * front (the first failure wins, as the real service validates before the handler runs); the handler
 * then asks for values and presence. A key is present even when its value is `""`, `null` or `[]`, but
 * for a duration given as `null`.
 */
export class Fields {
  readonly #values = new Map<string, unknown>()

  constructor(schema: FieldSchema, data: Record<string, unknown>) {
    for (const [name, value] of Object.entries(data)) {
      if (!Object.hasOwn(schema, name)) continue
      // The SDK reads a duration given as null as no duration at all (framework/field_data.go).
      if (value === null && schema[name] === 'duration') continue
      this.#values.set(name, CONVERTERS[schema[name]!](value, name))
    }
  }

  has(name: string): boolean {
    return this.#values.has(name)
  }

  string(name: string): string | undefined {
    return this.#values.get(name) as string | undefined
  }

  bool(name: string): boolean | undefined {
    return this.#values.get(name) as boolean | undefined
  }

  int(name: string): number | undefined {
    return this.#values.get(name) as number | undefined
  }

  /** A duration in seconds. */
  duration(name: string): number | undefined {
    return this.#values.get(name) as number | undefined
  }

  list(name: string): string[] | undefined {
    return this.#values.get(name) as string[] | undefined
  }

  pairs(name: string): Record<string, string> | undefined {
    return this.#values.get(name) as Record<string, string> | undefined
  }

  headers(name: string): HeaderMap | undefined {
    return this.#values.get(name) as HeaderMap | undefined
  }
}

/** Request keys the schema does not know, sorted (for the "ignored parameters" warning). */
export function unknownFields(schema: FieldSchema, data: Record<string, unknown>): string[] {
  return Object.keys(data)
    .filter((name) => !Object.hasOwn(schema, name))
    .sort()
}
