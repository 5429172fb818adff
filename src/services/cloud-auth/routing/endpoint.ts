import type { RequestContext } from '../../../core/glossary.ts'
import type { WrittenJson } from '../../../core/go/go-json-text.ts'
import type { RouteRow } from '../../../core/routing/index.ts'
import type { FieldSchema, Fields } from '../fields/index.ts'
import type { AuthProfile } from '../auth-profile.ts'
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
  data?: Record<string, unknown> | WrittenJson | null
  warnings?: string[]
  /** 200 unless said; the tidy endpoints answer 202. */
  status?: number
}

export type OperationHandler = (input: OperationInput) => OperationResult | undefined | Promise<OperationResult | undefined>

/**
 * One path of the auth method: a route row of any method (relative to the mount; `:name` captures a
 * field, a trailing `/` is optional, as on the real service's list paths), fields and operations (docs/reference/cloud-auth.md §3).
 */
export interface Endpoint extends RouteRow {
  fields: FieldSchema
  /** The fields under a profile, where they differ from `fields`. */
  fieldsFor?: (profile: AuthProfile) => FieldSchema | undefined
  /**
   * Paths with an existence check turn POST/PUT into create or update, and report field conversion
   * errors without the `Field validation failed: ` prefix (docs/reference/cloud-auth.md §1.6).
   */
  exists?: (state: AuthState, params: Record<string, string>) => boolean
  operations: Partial<Record<Operation, OperationHandler>>
}

/** The fields an endpoint reads under a profile. */
export function endpointFields(endpoint: Endpoint, profile: AuthProfile): FieldSchema {
  return endpoint.fieldsFor?.(profile) ?? endpoint.fields
}

const isWordChar = (code: number) =>
  (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f

/**
 * The real service's name segment (`\w(?:(?:[\w\-.]+)?\w)?`): letters, digits, `_`, with `-` and `.`
 * inside. The segment rule of the auth method's route table: a `:name` that breaks it matches no row.
 */
export function isNameSegment(path: string, from: number, to: number): boolean {
  if (!isWordChar(path.charCodeAt(from)) || !isWordChar(path.charCodeAt(to - 1))) return false
  for (let i = from + 1; i < to - 1; i++) {
    const code = path.charCodeAt(i)
    if (!isWordChar(code) && code !== 0x2d && code !== 0x2e) return false
  }
  return true
}

/** A LIST result: `{"keys": [...]}`, or nothing (404) when there are none. */
export function listResult(keys: string[]): OperationResult | undefined {
  return keys.length === 0 ? undefined : { data: { keys } }
}
