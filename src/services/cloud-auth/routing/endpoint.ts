import type { RequestContext } from '../../../core/glossary.ts'
import type { FieldSchema, Fields } from '../fields/index.ts'
import type { AuthState } from '../state.ts'

/** The logical operations an HTTP request maps to (docs/reference/cloud-auth.md §1.1). */
export type Operation = 'read' | 'list' | 'create' | 'update' | 'delete' | 'patch'

export interface OperationInput {
  context: RequestContext
  state: AuthState
  operation: Operation
  fields: Fields
  /** Values captured from the path, by name. */
  params: Record<string, string>
}

/** What a handler answers: nothing (204, or 404 for reads and lists) or an envelope's data and warnings. */
export interface OperationResult {
  data?: Record<string, unknown> | null
  warnings?: string[]
  /** 200 unless said; the tidy endpoints answer 202. */
  status?: number
}

export type OperationHandler = (input: OperationInput) => OperationResult | undefined | Promise<OperationResult | undefined>

/** One path of the auth method: its pattern, fields and operations (docs/reference/cloud-auth.md §3). */
export interface Endpoint {
  /** Anchored, relative to the mount, with named groups for the captured fields. */
  pattern: RegExp
  fields: FieldSchema
  /**
   * Paths with an existence check turn POST/PUT into create or update, and report field conversion
   * errors without the `Field validation failed: ` prefix (docs/reference/cloud-auth.md §1.6).
   */
  exists?: (state: AuthState, params: Record<string, string>) => boolean
  operations: Partial<Record<Operation, OperationHandler>>
}

/** The real service's name segment: letters, digits, `_`, with `-` and `.` inside. */
export const NAME_SEGMENT = String.raw`\w(?:(?:[\w\-.]+)?\w)?`

/** A path pattern with `{name}` placeholders for name segments. */
export function pathPattern(template: string): RegExp {
  const source = template
    .split(/(\{[a-z_]+\})/)
    .map((part) => (part.startsWith('{') ? `(?<${part.slice(1, -1)}>${NAME_SEGMENT})` : part))
    .join('')
  return new RegExp(`^${source}$`)
}

/** A LIST result: `{"keys": [...]}`, or nothing (404) when there are none. */
export function listResult(keys: string[]): OperationResult | undefined {
  return keys.length === 0 ? undefined : { data: { keys } }
}
