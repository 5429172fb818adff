/** What opens a `${{ … }}` template: scenarios resolve them; fixtures loaded on their own refuse them. */
export const TEMPLATE_OPEN = '${{'

/** Whether text holds a template. */
export function hasTemplate(text: string): boolean {
  return text.includes(TEMPLATE_OPEN)
}
