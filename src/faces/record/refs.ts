import { literalText } from '../../features/documents/template-marker.ts'

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

const BOUNDARY_BEFORE = '(?<![A-Za-z0-9_-])'
const BOUNDARY_AFTER = '(?![A-Za-z0-9_-])'

export class Refs {
  readonly #byValue = new Map<string, Ref>()
  #pattern: RegExp | undefined

  add(value: string, ref: Ref): void {
    if (value === '' || this.#byValue.has(value)) return
    this.#byValue.set(value, ref)
    this.#pattern = undefined
  }

  get(value: string): Ref | undefined {
    return this.#byValue.get(value)
  }

  /**
   * Recorded text as the scenario writes it: every recorded value in it (whole tokens only) replaced by its
   * template, the rest kept literal (`literalText`).
   */
  template(value: string): string {
    const whole = this.#byValue.get(value)
    if (whole) return whole.template
    if (this.#byValue.size === 0) return literalText(value)
    this.#pattern ??= new RegExp(
      `${BOUNDARY_BEFORE}(${[...this.#byValue.keys()]
        .sort((a, b) => b.length - a.length)
        .map((v) => v.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
        .join('|')})${BOUNDARY_AFTER}`,
      'g',
    )
    let out = ''
    let last = 0
    for (const found of value.matchAll(this.#pattern)) {
      out += literalText(value.slice(last, found.index)) + this.#byValue.get(found[0])!.template
      last = found.index + found[0].length
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
