import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseGoMediaType } from './go-mime.ts'

describe("Go's mime.ParseMediaType, for its answer", () => {
  // Each answer as the real server gave it for a PATCH with that Content-Type (scripts/real-server.sh).
  it.each([
    ['', { error: 'mime: no media type' }],
    ['text', { mediaType: 'text' }],
    ['text/', { error: 'mime: expected token after slash' }],
    ['/json', { error: 'mime: no media type' }],
    ['text/plain extra', { error: 'mime: unexpected content after media subtype' }],
    ['a@b/c', { error: 'mime: expected slash after first token' }],
    ['application/merge-patch+json; charset', { error: 'mime: invalid media parameter' }],
    ['application/merge-patch+json;', { mediaType: 'application/merge-patch+json' }],
    ['application/merge-patch+json; a=1; a=2', { error: 'mime: duplicate parameter name' }],
    ['application/merge-patch+json; a=1; a=1', { mediaType: 'application/merge-patch+json' }],
    ['application/merge-patch+json; a="unterminated', { error: 'mime: invalid media parameter' }],
    ['application/merge-patch+json; a=""', { mediaType: 'application/merge-patch+json' }],
    ['application/merge-patch+json; a="x\\"y"', { mediaType: 'application/merge-patch+json' }],
    ['Application/Merge-Patch+JSON', { mediaType: 'application/merge-patch+json' }],
    ['application/merge-patch+json ; charset=utf-8', { mediaType: 'application/merge-patch+json' }],
    ['application/merge-patch+json; charset=utf-8;', { mediaType: 'application/merge-patch+json' }],
    ['\xc2\xa0application/json', { mediaType: 'application/json' }],
    ['\xa0application/json', { error: 'mime: no media type' }],
  ])('%j', (value, answer) => {
    expect(parseGoMediaType(value)).toEqual(answer)
  })

  it('answers any header value with a type or an error, never throwing (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'B', '/', ';', '=', '"', '\\', ' ', '\t', '*', '@', '\xa0', '\xc2', 'x') }), (value) => {
        const answer = parseGoMediaType(value)
        if ('mediaType' in answer) expect(answer.mediaType).toBe(answer.mediaType.toLowerCase())
        else expect(answer.error).toMatch(/^mime: /)
      }),
    )
  })
})
