import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LoginError } from '../login-error.ts'
import { parseIdentityDocument } from './identity-document.ts'
import { parseRfc3339, TimeParseError } from '../../../../core/go/rfc3339.ts'

const refusal = (run: () => unknown): string => {
  try {
    run()
  } catch (error) {
    if (error instanceof LoginError || error instanceof TimeParseError) return error.message
    throw error
  }
  throw new Error('expected a refusal')
}

describe('identity document decoding', () => {
  it('reads the fields the login uses, ignoring others, case-insensitively like Go', () => {
    const text = '{"accountId":"1","ImageId":"ami-1","instanceId":"i-1","region":"r","pendingTime":"t","architecture":"x86_64","tags":{"a":1},"kernelId":null} trailing'
    expect(parseIdentityDocument(Buffer.from(text))).toEqual({ accountId: '1', imageId: 'ami-1', instanceId: 'i-1', region: 'r', pendingTime: 't' })
  })

  it('reports type errors and syntax errors as Go does', () => {
    expect(refusal(() => parseIdentityDocument(Buffer.from('{"instanceId":5}')))).toBe(
      'json: cannot unmarshal number into Go struct field identityDocument.instanceId of type string',
    )
    expect(refusal(() => parseIdentityDocument(Buffer.from('[1]')))).toBe('json: cannot unmarshal array into Go value of type awsauth.identityDocument')
    expect(refusal(() => parseIdentityDocument(Buffer.from('{"a":')))).toBe('unexpected EOF')
    expect(refusal(() => parseIdentityDocument(Buffer.from('x')))).toBe("invalid character 'x' looking for beginning of value")
  })

  it('never throws anything but a refusal', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        try {
          parseIdentityDocument(Buffer.from(text))
        } catch (error) {
          expect(error).toBeInstanceOf(LoginError)
        }
      }),
    )
  })
})

describe('RFC 3339 pendingTime', () => {
  it('orders instants, fractions and offsets included', () => {
    expect(parseRfc3339('2016-11-19T16:32:11Z')).toBe(1479573131n * 1_000_000_000n)
    expect(parseRfc3339('2016-11-19T17:32:11+01:00')).toBe(parseRfc3339('2016-11-19T16:32:11Z'))
    expect(parseRfc3339('2016-11-19T16:32:11.5Z') > parseRfc3339('2016-11-19T16:32:11Z')).toBe(true)
  })

  it("gives Go's parse errors", () => {
    expect(refusal(() => parseRfc3339('x'))).toBe('parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"')
    expect(refusal(() => parseRfc3339(''))).toBe('parsing time "" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "2006"')
    expect(refusal(() => parseRfc3339('2016-13-01T00:00:00Z'))).toBe('parsing time "2016-13-01T00:00:00Z": month out of range')
    expect(refusal(() => parseRfc3339('2016-11-19T16:32:11Zabc'))).toBe('parsing time "2016-11-19T16:32:11Zabc": extra text: "abc"')
    expect(refusal(() => parseRfc3339('2016-11-19 16:32:11Z'))).toBe('parsing time "2016-11-19 16:32:11Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 16:32:11Z" as "T"')
  })
})
