import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkJsonLimits, VAULT_LISTENER_JSON_LIMITS, type JsonLimits } from './listener-json-limits.ts'

const VAULT: JsonLimits = { ...VAULT_LISTENER_JSON_LIMITS, maxTotalEntries: undefined }
const check = (text: string, limits = VAULT, over = false) => checkJsonLimits(Buffer.from(text, 'latin1'), limits, over)?.message

describe("Vault 1.21's listener JSON check", () => {
  // Each as Vault's SDK words it (test/real-server/listener-json.test.ts runs the SDK's own beside doppel's).
  it.each([
    ['{"a":1}', undefined],
    ['{"a" 1}', undefined],
    ['[1]', undefined],
    ['"not a container"', undefined],
    ['x', undefined],
    ['{} x', "invalid character 'x' after top-level value"],
    ['{}{}', "invalid character '{' after top-level value"],
    ['{"a":{"b":1},"c":{"b":1}}', undefined],
    ['{"a":1,"a":2}', "duplicate key 'a' in object"],
    ['{"\\u00e9":1,"\xc3\xa9":2}', "duplicate key 'é' in object"],
    ['{"a":1,}', "invalid character '}' after object key-value pair"],
    ['[1,]', "invalid character ']' after array element"],
    ['{"a":}', "invalid character '}' after object key"],
    ['{]', "malformed JSON: mismatched closing delimiter ']'"],
    ['{', 'malformed JSON, unclosed containers'],
    ['{"a', 'malformed JSON, unclosed string'],
    ['{"a\\', 'malformed JSON, unterminated escape sequence in string'],
    ['{"a\\u12', 'malformed JSON, unterminated unicode escape in string'],
    ['{"a\\u12\xc3\xa9', "invalid character 'é' in string escape code"],
    ['{"\\ud800":1}', 'malformed JSON, unterminated surrogate pair in string'],
    ['{"a":01}', "invalid character '1' after top-level value"],
    ['{"a":-}', "malformed JSON, invalid number syntax for '-'"],
    ['{"a":1e999}', "malformed JSON, invalid number syntax for '1e999'"],
    ['{"a":1.}', undefined],
    ['{"a":truex}', undefined],
    ['\x1f{"a":\x8b1}', undefined],
    ['{"a":+1}', "invalid character '+' looking for beginning of value"],
  ])('%j', (text, message) => {
    expect(check(text)).toBe(message)
  })

  it('refuses past each limit, and past the size limit where it reads that far', () => {
    const small: JsonLimits = { maxDepth: 2, maxStringValueLength: 3, maxObjectEntryCount: 1, maxArrayElementCount: 2, maxTokens: 9 }
    expect(check('[[[]]]', small)).toBe('JSON input exceeds allowed nesting depth')
    expect(check('["abcd"]', small)).toBe('JSON string value exceeds allowed length')
    expect(check('["\\n\\n"]', small)).toBe('JSON string value exceeds allowed length')
    expect(check('[1234]', small)).toBe('JSON number value exceeds allowed length')
    expect(check('{"a":1,"b":2}', small)).toBe('JSON object exceeds allowed entry count')
    expect(check('[1,2,3]', small)).toBe('JSON array exceeds allowed element count')
    expect(check('[[1,2],[1,2]]', small)).toBe('JSON payload exceeds allowed token count')
    for (const cut of ['{"a":1', '{"a', '{"a":1, ', ' ']) expect(checkJsonLimits(Buffer.from(cut), VAULT, true), cut).toEqual({ message: 'http: request body too large', tooLarge: true })
    expect(checkJsonLimits(Buffer.from('{"a\\u1'), VAULT, true)).toEqual({ message: 'malformed JSON, unterminated unicode escape in string', tooLarge: false })
    expect(checkJsonLimits(Buffer.from('{"a":1}x'), VAULT, true)?.tooLarge).toBe(false)
  })

  it("counts doppel's own bound on a body's entries as Vault's token count", () => {
    const body = `[${Array(6).fill('[1,2,3,4]').join(',')}]`
    expect(check(body, { ...VAULT, maxTotalEntries: 20 })).toBe('JSON payload exceeds allowed token count')
    expect(check(body, { ...VAULT, maxTotalEntries: 30 })).toBeUndefined()
  })

  it('passes JSON within the limits and answers anything with a refusal or nothing, never throwing (property)', () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 5 }), fc.uint8Array({ maxLength: 64 }), (json, bytes) => {
        // JSON.stringify writes a lone surrogate half as an escape, which the check refuses, as Vault does.
        if (!/\\ud[89ab]/.test(json)) expect(check(json)).toBeUndefined()
        const answer = checkJsonLimits(bytes, VAULT)
        expect(answer === undefined || typeof answer.message === 'string').toBe(true)
      }),
      { numRuns: 2000 },
    )
  })
})
