import fc from 'fast-check'
import { expect, it } from 'vitest'
import { goJsonText } from './go-json-text.ts'

it("escapes what Go's encoder escapes for HTML and nothing else", () => {
  expect(goJsonText({ errors: ["invalid character '<' looking for beginning of value"] })).toBe('{"errors":["invalid character \'\\u003c\' looking for beginning of value"]}')
  expect(goJsonText(['a&b>c', '\u2028\u2029', 'plain'])).toBe('["a\\u0026b\\u003ec","\\u2028\\u2029","plain"]')
})

it('is JSON that reads back as the value (property)', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      expect(JSON.parse(goJsonText(value))).toEqual(JSON.parse(JSON.stringify(value)))
    }),
  )
})
