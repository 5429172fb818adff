/** What opens a `${{ … }}` template: scenarios resolve them; fixtures loaded on their own refuse them. */
export const TEMPLATE_OPEN = '${{'

/** Whether text holds a template. */
export function hasTemplate(text: string): boolean {
  return text.includes(TEMPLATE_OPEN)
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
