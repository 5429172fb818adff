import { NestingTooDeepError, parseJsonBounded } from '../../core/bounded-parse.ts'
import { unknownField } from '../../core/did-you-mean.ts'
import { explainResponse } from '../../core/explanation.ts'
import { BodyTooLargeError, jsonResponse, readBodyBytes } from '../../core/http.ts'
import { CONTROL_BODY_LIMITS, type BodySpec } from '../../core/routing/index.ts'

export const JSON_TYPES = ['application/json'] as const

/** A body read as its route says, or why it is refused (413 or 400, with one set of messages for every route). */
export type ReadBody = { value: unknown; refusal?: undefined } | { refusal: { status: number; message: string } }

const refuse = (status: number, message: string): ReadBody => ({ refusal: { status, message } })

/** A body's refusal as the control API answers it (`{"errors":[…]}`), with its explanation for the journal. */
export function bodyRefusal({ status, message }: { status: number; message: string }): Response {
  return explainResponse(jsonResponse(status, { errors: [message] }), { rule: 'control request body', seen: message })
}

/** The control API's body messages, in one place. */
const bodyMessages = {
  tooLarge: (what: string, limit: number) => `Failed to read the ${what}: the body is over ${limit} bytes`,
  tooDeep: (what: string, detail: string) => `Failed to read the ${what}: the body is ${detail}`,
  notJson: (what: string) => `Failed to read the ${what}: the body is not complete JSON`,
  notObject: (what: string) => `Failed to read the ${what}: the body must be a JSON object`,
  unknownField: (what: string, why: string, fields: readonly string[]) => `Failed to read the ${what}: ${why}; its fields are ${fields.map((f) => `"${f}"`).join(', ')}`,
}

/** Reads a route's body as its spec says. */
export async function readControlBody(request: Request, spec: BodySpec): Promise<ReadBody> {
  const what = spec.names ?? 'request'
  const limit = CONTROL_BODY_LIMITS[spec.limit]
  let bytes: Uint8Array
  try {
    bytes = await readBodyBytes(request, limit)
  } catch (error) {
    if (error instanceof BodyTooLargeError) return refuse(413, bodyMessages.tooLarge(what, limit))
    throw error
  }
  if (spec.kind === 'bytes') return { value: bytes }
  const text = new TextDecoder().decode(bytes)
  if (spec.kind === 'text') return { value: text }
  if (spec.kind === 'object' && !spec.required && text.trim() === '') return { value: {} }
  return parseControlJson(text, spec)
}

/**
 * A JSON body as the control API reads it (nesting checked first), or its refusal; a route reading `bytes`
 * parses elsewhere and hands the error here (`parse` throws it) for the same answer.
 */
export function parseControlJson(text: string, spec: BodySpec, parse: (text: string) => unknown = parseJsonBounded): ReadBody {
  const what = spec.names ?? 'request'
  let value: unknown
  try {
    value = parse(text)
  } catch (error) {
    if (error instanceof NestingTooDeepError) return refuse(400, bodyMessages.tooDeep(what, error.message))
    if (error instanceof SyntaxError) return refuse(400, spec.kind === 'object' ? bodyMessages.notObject(what) : bodyMessages.notJson(what))
    throw error
  }
  if (spec.kind === 'object' && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    return refuse(400, bodyMessages.notObject(what))
  }
  const unknown = spec.kind === 'object' && spec.fields ? unknownField(value as object, spec.fields) : undefined
  if (unknown !== undefined) return refuse(400, bodyMessages.unknownField(what, unknown, spec.fields!))
  return { value }
}
