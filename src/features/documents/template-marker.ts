import type { ValuePath } from './glossary.ts'

/** What opens a `${{ … }}` template: scenarios resolve them; fixtures loaded on their own refuse them. */
export const TEMPLATE_OPEN = '${{'

/** Whether text holds a template. */
export function hasTemplate(text: string): boolean {
  return text.includes(TEMPLATE_OPEN)
}

/** The path of the first string in `value` that holds a template, or undefined. */
export function findTemplate(value: unknown, path: ValuePath = []): ValuePath | undefined {
  if (typeof value === 'string') return hasTemplate(value) ? path : undefined
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findTemplate(item, [...path, i])
      if (found) return found
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const found = findTemplate(item, [...path, key])
      if (found) return found
    }
  }
  return undefined
}

/**
 * Text that renders as itself: every `${{` becomes `${{ '$' }}{{`, so recorded text that happens to hold
 * the marker is not read as a template on replay.
 */
export function literalText(text: string): string {
  // A function, not a replacement string: `$'` there would mean "the text after the match".
  return hasTemplate(text) ? text.replaceAll(TEMPLATE_OPEN, () => LITERAL_OPEN) : text
}

/** The marker written so that it renders as itself: a literal `$`, then `{{`. */
const LITERAL_OPEN = "${{ '$' }}{{"

/** `literalText` over JSON: every string and mapping key, structure kept. */
export function literalJson(value: unknown): unknown {
  if (typeof value === 'string') return literalText(value)
  if (Array.isArray(value)) return value.map(literalJson)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [literalText(key), literalJson(item)]))
  return value
}
