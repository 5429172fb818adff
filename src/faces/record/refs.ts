import { literalText } from '../../features/documents/index.ts'

/**
 * Recorded values that must not be replayed literally, and what stands for them in the scenario: a
 * capture of an earlier step (`${{ steps.s3.client_token }}`), or a name made unique per run.
 */
export interface Ref {
  /** The template that produces the value on replay. */
  template: string
  /** `steps.<id>.<capture>` when the value is a capture (expectations then use `$sameAs`). */
  sameAs?: string
}

/** A value is replaced only as a whole token: not next to one of these characters. */
const WORD = /[A-Za-z0-9_-]/

export class Refs {
  readonly #byValue = new Map<string, Ref>()
  /** The values' distinct lengths, longest first: what `template` tries at each position. */
  #lengths: number[] | undefined

  add(value: string, ref: Ref): void {
    if (value === '' || this.#byValue.has(value)) return
    this.#byValue.set(value, ref)
    this.#lengths = undefined
  }

  get(value: string): Ref | undefined {
    return this.#byValue.get(value)
  }

  /**
   * Recorded text as the scenario writes it: every recorded value in it (whole tokens only, the longest
   * at each position) replaced by its template, the rest kept literal (`literalText`). Lookups by length,
   * not one pattern of every value: a session adds values as it goes, and each would mean a new pattern
   * as long as all of them.
   */
  template(value: string): string {
    const whole = this.#byValue.get(value)
    if (whole) return whole.template
    if (this.#byValue.size === 0) return literalText(value)
    const lengths: number[] = (this.#lengths ??= [...new Set([...this.#byValue.keys()].map((key) => key.length))].sort((a, b) => b - a))
    let out = ''
    let last = 0
    for (let at = 0; at < value.length; at++) {
      if (at > 0 && WORD.test(value[at - 1]!)) continue
      for (const length of lengths) {
        const end = at + length
        if (end > value.length || (end < value.length && WORD.test(value[end]!))) continue
        const ref = this.#byValue.get(value.slice(at, end))
        if (!ref) continue
        out += literalText(value.slice(last, at)) + ref.template
        last = end
        at = end - 1
        break
      }
    }
    return out + literalText(value.slice(last))
  }

  /** Deep `template` over recorded JSON: strings replaced, keys kept literal, structure kept. */
  templateJson(value: unknown): unknown {
    if (typeof value === 'string') return this.template(value)
    if (Array.isArray(value)) return value.map((item) => this.templateJson(item))
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [literalText(key), this.templateJson(item)]))
    }
    return value
  }
}
