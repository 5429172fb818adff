/**
 * JSON text as Go's `json.Encoder` writes it (the real service's answers): `<`, `>` and `&` as `\u003c`,
 * `\u003e`, `\u0026`, and U+2028 and U+2029 escaped, so that the text is safe inside HTML. The rest is
 * JSON.stringify's.
 */
export function goJsonText(value: unknown): string {
  const text = JSON.stringify(value)
  return HTML_UNSAFE.test(text) ? text.replace(HTML_UNSAFE_ALL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`) : text
}

const HTML_UNSAFE = /[<>&\u2028\u2029]/
const HTML_UNSAFE_ALL = new RegExp(HTML_UNSAFE.source, 'g')

/**
 * A value already written as Go's JSON text, placed as it is inside a larger answer: an answer read often
 * and changed rarely (a role's read data) is written once, not on every read.
 */
export class WrittenJson {
  readonly text: string

  constructor(value: unknown) {
    this.text = goJsonText(value)
  }
}
