import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodePem } from './pem-block.ts'

const BODY = Buffer.from('hello pem').toString('base64')
const block = (type = 'CERTIFICATE', body = BODY) => `-----BEGIN ${type}-----\n${body}\n-----END ${type}-----\n`

describe('decodePem (Go’s pem.Decode)', () => {
  it('decodes one block and returns nothing after its END line', () => {
    const [found, rest] = decodePem(block())
    expect(found?.type).toBe('CERTIFICATE')
    expect(found?.bytes.toString()).toBe('hello pem')
    expect(rest).toBe('')
  })

  it('skips leading text and returns what follows the block', () => {
    const [found, rest] = decodePem(`notes\n${block()}tail`)
    expect(found?.bytes.toString()).toBe('hello pem')
    expect(rest).toBe('tail')
  })

  it('accepts a block without the final newline, with CRLF, and with headers', () => {
    expect(decodePem(block().trimEnd())[1]).toBe('')
    expect(decodePem(block().replaceAll('\n', '\r\n'))[0]?.bytes.toString()).toBe('hello pem')
    const [found] = decodePem(`-----BEGIN X-----\nProc-Type: 4,ENCRYPTED\n\n${BODY}\n-----END X-----\n`)
    expect(found?.headers).toEqual({ 'Proc-Type': '4,ENCRYPTED' })
  })

  it('skips a block whose body is no base64 or whose END type differs, and gives the input back when none decodes', () => {
    const bad = block('CERTIFICATE', '%%%')
    expect(decodePem(bad)).toEqual([undefined, bad])
    const mismatched = `-----BEGIN A-----\n${BODY}\n-----END B-----\n`
    expect(decodePem(mismatched)).toEqual([undefined, mismatched])
    const [found, rest] = decodePem(bad + block('GOOD'))
    expect(found?.type).toBe('GOOD')
    expect(rest).toBe('')
  })

  it('never throws, and a found block’s rest is a suffix of the input', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (before, after) => {
        const input = `${before}${block()}${after}`
        const [found, rest] = decodePem(input)
        expect(input.endsWith(rest)).toBe(true)
        if (found === undefined) expect(rest).toBe(input)
      }),
    )
  })
})
