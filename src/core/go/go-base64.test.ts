import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeStdBase64 } from './go-base64.ts'

/** The rule as Go's decoder applies it, written plainly: the reference for the decoder's fast path. */
function reference(value: string): Buffer | undefined {
  const text = value.replace(/[\r\n]/g, '')
  if (text.length % 4 !== 0) return undefined
  if (!/^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return undefined
  return Buffer.from(text, 'base64')
}

describe('decodeStdBase64', () => {
  it('decodes padded standard base64, skipping line breaks, and refuses anything else', () => {
    expect(decodeStdBase64('aGk=\r\n')?.toString()).toBe('hi')
    expect(decodeStdBase64('aGl=')?.toString()).toBe('hi')
    expect(decodeStdBase64('aGk')).toBeUndefined()
    expect(decodeStdBase64('aG k=')).toBeUndefined()
    expect(decodeStdBase64('aG-_')).toBeUndefined()
    expect(decodeStdBase64('')?.length).toBe(0)
  })

  it('agrees with the plain rule on any text', () => {
    const alphabet = fc.constantFrom(...'ABCxyz019+/=-_ \r\n.'.split(''))
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: alphabet, maxLength: 24 }), fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes).toString('base64'))), (text) => {
        const got = decodeStdBase64(text)
        const want = reference(text)
        expect(got === undefined ? undefined : got.toString('hex')).toBe(want === undefined ? undefined : want.toString('hex'))
      }),
      { numRuns: 2000 },
    )
  })
})
