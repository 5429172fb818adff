import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { goList, goQuote, goQuoteAscii, goQuoteList, goValue } from './go-format.ts'

describe('Go text forms', () => {
  it('quotes like strconv.Quote', () => {
    expect(goQuote('a"b\\c')).toBe('"a\\"b\\\\c"')
    expect(goQuote('\n\t\x07\x01\x7f')).toBe('"\\n\\t\\a\\x01\\x7f"')
    expect(goQuote('é☃')).toBe('"é☃"')
    expect(goQuote('\u00a0\u200b')).toBe('"\\u00a0\\u200b"')
    expect(goQuoteAscii('é')).toBe('"\\u00e9"')
    expect(goQuoteAscii('😀')).toBe('"\\U0001f600"')
  })

  it('prints slices and maps like %v and %q', () => {
    expect(goList(['a', 'b'])).toBe('[a b]')
    expect(goQuoteList(['a', 'b'])).toBe('["a" "b"]')
    expect(goValue({ b: [1, null], a: { c: true } })).toBe('map[a:map[c:true] b:[1 <nil>]]')
  })

  it('quotes printable ASCII by escaping only quote and backslash', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ -~]*$/), (text) => {
        expect(goQuote(text)).toBe(`"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`)
      }),
    )
  })
})
