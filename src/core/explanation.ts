import { DoppelError } from './doppel-error.ts'

/**
 * Why a request was refused, in doppel's own words: the rule that refused it, the value it saw and what
 * would have passed. It never reaches the client's body: the service's edge hands it to the journal
 * beside the response (`explainResponse`), and tests, the control API and the dashboard read it there.
 */
export interface Explanation {
  /** The rule that refused the request: a field, a constraint, a check (`bound_ami_id`, `sigv4 signature`). */
  rule: string
  /** The value doppel saw. */
  seen: string
  /** What would have passed, where one value or list says it. */
  expected?: string
  /** What to change. */
  hint?: string
  /** More to read: for a SigV4 mismatch, the canonical request and string to sign doppel computed. */
  details?: Record<string, string>
}

// Keyed by the response object: nothing is kept once the response is gone.
const EXPLANATIONS = new WeakMap<Response, Explanation>()

/** Attaches an explanation to a response (the service's edge does, once); returns the response. */
export function explainResponse(response: Response, explanation: Explanation | undefined): Response {
  if (explanation !== undefined) EXPLANATIONS.set(response, explanation)
  return response
}

/** The explanation attached to a response, if any. */
export function responseExplanation(response: Response): Explanation | undefined {
  return EXPLANATIONS.get(response)
}

/** A list as the explanations write it: `[a, b]`. */
export function listText(values: readonly string[]): string {
  return `[${values.join(', ')}]`
}

/** The explanation an error carries, or one naming `rule` with the error's message as what was seen. */
export function explanationOf(error: unknown, rule: string): Explanation {
  if (error instanceof DoppelError && error.explanation) return error.explanation
  return { rule, seen: error instanceof Error ? error.message : String(error) }
}
