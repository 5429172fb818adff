import { NestingTooDeepError, parseJsonBounded } from '../../core/bounded-parse.ts'
import { BodyTooLargeError, readBodyText } from '../../core/http.ts'

/**
 * The control API's body limits, by what a body carries. Every route names one; the guard, the router and
 * the in-process calls all read a body through `readControlBody`.
 */
export const CONTROL_BODY_LIMITS = {
  /** Fake-cloud set-up (instances, principals, documents): small objects. */
  cloud: 1024 * 1024,
  /** Settings, faults, fixtures and registry set-up. */
  control: 8 * 1024 * 1024,
  /** A whole state: big enough for 100k-record states, read whole before anything changes. */
  snapshot: 256 * 1024 * 1024,
} as const

/** What a route reads from its body. */
export interface BodySpec {
  /** `object`: a JSON object (empty means `{}` unless `required`); `json`: any JSON value; `text`: the text as is. */
  kind: 'object' | 'json' | 'text'
  limit: keyof typeof CONTROL_BODY_LIMITS
  /** An empty body is refused instead of read as `{}`. */
  required?: boolean
  /** Media types a write may declare (the guard's check); JSON unless given. */
  types?: readonly string[]
  /** What the messages call the body: `request` unless given. */
  names?: string
}

export const JSON_TYPES = ['application/json'] as const

/** A body read as its route says, or why it is refused (413 or 400, with one set of messages for every route). */
export type ReadBody = { value: unknown; refusal?: undefined } | { refusal: { status: number; message: string } }

const refuse = (status: number, message: string): ReadBody => ({ refusal: { status, message } })

/** The control API's body messages, in one place. */
const bodyMessages = {
  tooLarge: (what: string, limit: number) => `Failed to read the ${what}: the body is over ${limit} bytes`,
  tooDeep: (what: string, detail: string) => `Failed to read the ${what}: the body is ${detail}`,
  notJson: (what: string) => `Failed to read the ${what}: the body is not complete JSON`,
  notObject: (what: string) => `Failed to read the ${what}: the body must be a JSON object`,
}

/** Reads a route's body as its spec says. */
export async function readControlBody(request: Request, spec: BodySpec): Promise<ReadBody> {
  const what = spec.names ?? 'request'
  const limit = CONTROL_BODY_LIMITS[spec.limit]
  let text: string
  try {
    text = await readBodyText(request, limit)
  } catch (error) {
    if (error instanceof BodyTooLargeError) return refuse(413, bodyMessages.tooLarge(what, limit))
    throw error
  }
  if (spec.kind === 'text') return { value: text }
  if (spec.kind === 'object' && !spec.required && text.trim() === '') return { value: {} }
  let value: unknown
  try {
    value = parseJsonBounded(text)
  } catch (error) {
    if (error instanceof NestingTooDeepError) return refuse(400, bodyMessages.tooDeep(what, error.message))
    if (error instanceof SyntaxError) return refuse(400, spec.kind === 'object' ? bodyMessages.notObject(what) : bodyMessages.notJson(what))
    throw error
  }
  if (spec.kind === 'object' && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    return refuse(400, bodyMessages.notObject(what))
  }
  return { value }
}
