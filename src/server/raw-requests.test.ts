import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseRawRequests, RawRequestError } from './raw-requests.ts'

describe('parseRawRequests', () => {
  it('reads pipelined requests with bodies and repeated headers', () => {
    const packet = Buffer.from(
      'LIST /a HTTP/1.1\r\nHost: x\r\nX-A: 1\r\nX-A: 2\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 5\r\n\r\nhelloGET /c HTTP/1.1\r\n\r\n',
    )
    const requests = parseRawRequests(packet)
    expect(requests.map((r) => [r.method, r.target, r.body.toString()])).toEqual([
      ['LIST', '/a', ''],
      ['POST', '/b', 'hello'],
      ['GET', '/c', ''],
    ])
    expect(requests[0]!.headers).toEqual([['Host', 'x'], ['X-A', '1'], ['X-A', '2']])
  })

  it.each([
    'LIST /a HTTP/1.1\r\nHost: x\r\n',
    'LIST /a\r\n\r\n',
    'LIST /a HTTP/1.1\r\nContent-Length: 9\r\n\r\nabc',
    'LIST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    'LIST /a HTTP/1.1\r\nno colon\r\n\r\n',
  ])('refuses %j', (text) => {
    expect(() => parseRawRequests(Buffer.from(text))).toThrow(RawRequestError)
  })

  it('never throws anything but RawRequestError on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        try {
          parseRawRequests(Buffer.from(bytes))
        } catch (error) {
          expect(error).toBeInstanceOf(RawRequestError)
        }
      }),
    )
  })
})
