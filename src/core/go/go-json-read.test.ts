import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { goMapUnmarshalError, readGoJsonValue } from './go-json-read.ts'
import { goUtf8 } from './go-utf8.ts'

const read = (text: string, over = false) => readGoJsonValue(Buffer.from(text, 'latin1'), over)
const message = (text: string) => {
  const answer = read(text)
  return answer.kind === 'error' ? answer.message : answer.kind
}

describe("Go's json.Decoder, for what it reads first and its errors", () => {
  // Each as Go's decoder words it (test/real-server/listener-json.test.ts runs Go's own beside doppel's).
  it.each([
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b"}', `invalid character '"' after object key:value pair`],
    ['[1 2]', "invalid character '2' after array element"],
    ['{1}', "invalid character '1' looking for beginning of object key string"],
    ['[,1]', "invalid character ',' looking for beginning of value"],
    ['{"a":1.}', "invalid character '}' after decimal point in numeric literal"],
    ['{"a":1e}', "invalid character '}' in exponent of numeric literal"],
    ['{"a":-x}', "invalid character 'x' in numeric literal"],
    ['{"a":tru}', "invalid character '}' in literal true (expecting 'e')"],
    ['{"a":nan}', "invalid character 'a' in literal null (expecting 'u')"],
    ['{"a":"\\q"}', "invalid character 'q' in string escape code"],
    ['{"a":"\\u12x4"}', "invalid character 'x' in \\u hexadecimal character escape"],
    ['{"a":"\x01"}', "invalid character '\\x01' in string literal"],
    ["'a'", "invalid character '\\'' looking for beginning of value"],
    ['\xef\xbb\xbf{}', "invalid character 'ï' looking for beginning of value"],
    ['\xa0{}', "invalid character '\\u00a0' looking for beginning of value"],
    ['{', 'unexpected EOF'],
    ['tru', 'unexpected EOF'],
    ['-', 'unexpected EOF'],
    ['', 'none'],
    [' \n\t\r', 'none'],
  ])('%j', (text, expected) => {
    expect(message(text)).toBe(expected)
  })

  it('reads the first value only: an object to its brace, a scalar to the byte after it', () => {
    expect(read(' {"a":[1]} x')).toEqual({ kind: 'value', start: 1, end: 10 })
    expect(read('{}{}')).toEqual({ kind: 'value', start: 0, end: 2 })
    expect(read('12 x')).toEqual({ kind: 'value', start: 0, end: 2 })
    expect(read('12')).toEqual({ kind: 'value', start: 0, end: 2 })
    expect(read('"s"x')).toEqual({ kind: 'value', start: 0, end: 3 })
  })

  it('meets the size limit where it reads that far, not where a value ended before it', () => {
    expect(read('{"a":1', true)).toEqual({ kind: 'error', message: 'http: request body too large' })
    expect(read('{"a":1}', true)).toEqual({ kind: 'value', start: 0, end: 7 })
    expect(read('x', true)).toEqual({ kind: 'error', message: "invalid character 'x' looking for beginning of value" })
  })

  it('names the Go type a first value that is not an object fails to unmarshal as', () => {
    expect(['{', 'n', '[', '"', 't', 'f', '-', '7'].map((char) => goMapUnmarshalError(char.charCodeAt(0)))).toEqual([
      undefined,
      undefined,
      ...['array', 'string', 'bool', 'bool', 'number', 'number'].map((kind) => `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`),
    ])
  })

  it('agrees with JSON.parse on what is JSON (property)', () => {
    const text = fc.oneof(
      fc.json(),
      fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '\\', '-', '.', 'e', '0', '1', 't', 'r', 'u', 'n', 'l', ' '), maxLength: 40 }),
    )
    fc.assert(
      fc.property(text, (candidate) => {
        const answer = readGoJsonValue(new TextEncoder().encode(candidate))
        let whole = true
        try {
          JSON.parse(candidate)
        } catch {
          whole = false
        }
        // A text JSON.parse takes whole is one value Go reads whole; a value Go reads is JSON to JSON.parse.
        if (whole) expect(answer).toEqual({ kind: 'value', start: candidate.length - candidate.trimStart().length, end: candidate.trimEnd().length })
        if (answer.kind === 'value') expect(() => JSON.parse(candidate.slice(answer.start, answer.end))).not.toThrow()
      }),
      { numRuns: 3000 },
    )
  })
})

describe("Go's UTF-8 reading", () => {
  it('keeps valid sequences and makes each byte that starts none U+FFFD on its own', () => {
    expect(goUtf8(Buffer.from('é€😀', 'utf8'))).toBe('é€😀')
    expect(goUtf8([0xe2, 0x82, 0x41])).toBe('\ufffd\ufffdA')
    expect(goUtf8([0xed, 0xa0, 0x80])).toBe('\ufffd\ufffd\ufffd')
    expect(goUtf8([0xc0, 0xaf, 0xf4, 0x90, 0x80, 0x80, 0xff])).toBe('\ufffd'.repeat(7))
  })

  it('reads valid UTF-8 as TextDecoder does (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(goUtf8(new TextEncoder().encode(text))).toBe(text)
      }),
    )
  })
})
