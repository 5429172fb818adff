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

/**
 * The most each text of an explanation keeps, in bytes of UTF-8, and how many `details` it keeps: a
 * refusal's explanation is held as long as its journal entry, and what it quotes (a canonical request,
 * a value seen) comes from an unauthenticated caller who chooses its size.
 */
const EXPLANATION_TEXT_LIMIT = 4096
const EXPLANATION_DETAILS_LIMIT = 8

/** Attaches an explanation to a response (the service's edge does, once), bounded; returns the response. */
export function explainResponse(response: Response, explanation: Explanation | undefined): Response {
  if (explanation !== undefined) EXPLANATIONS.set(response, boundExplanation(explanation))
  return response
}

/** An explanation whose texts are cut at EXPLANATION_TEXT_LIMIT bytes (with a mark saying so) and whose details are at most EXPLANATION_DETAILS_LIMIT. */
function boundExplanation(explanation: Explanation): Explanation {
  const out: Explanation = { rule: boundText(explanation.rule), seen: boundText(explanation.seen) }
  if (explanation.expected !== undefined) out.expected = boundText(explanation.expected)
  if (explanation.hint !== undefined) out.hint = boundText(explanation.hint)
  if (explanation.details) {
    const entries = Object.entries(explanation.details)
    const kept = entries.slice(0, EXPLANATION_DETAILS_LIMIT).map(([name, value]) => [boundText(name), boundText(value)])
    if (entries.length > EXPLANATION_DETAILS_LIMIT) kept.push(['…', `${entries.length - EXPLANATION_DETAILS_LIMIT} more left out`])
    out.details = Object.fromEntries(kept)
  }
  return out
}

/**
 * A text cut at EXPLANATION_TEXT_LIMIT bytes (a split character dropped), marked with the size it had. The
 * cut is a new string: a slice would keep the whole text alive.
 */
function boundText(text: string): string {
  if (text.length <= EXPLANATION_TEXT_LIMIT / 3) return text
  const size = Buffer.byteLength(text)
  if (size <= EXPLANATION_TEXT_LIMIT) return text
  const start = Buffer.from(text.slice(0, EXPLANATION_TEXT_LIMIT)).subarray(0, EXPLANATION_TEXT_LIMIT)
  return `${new TextDecoder().decode(start, { stream: true })}… [cut at ${EXPLANATION_TEXT_LIMIT} of ${size} bytes]`
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
