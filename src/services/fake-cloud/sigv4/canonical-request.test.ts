import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CloudError } from '../glossary.ts'
import { readAuthMaterial } from './auth-material.ts'
import { canonicalHeaders, canonicalQuery, canonicalUri, encodeRfc3986, pathSegments } from './canonical-request.ts'

describe('encodeRfc3986', () => {
  it('keeps only unreserved characters and %XX escapes, and decodes back to the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const encoded = encodeRfc3986(text)
        expect(encoded).toMatch(/^(?:[A-Za-z0-9\-_.~]|%[0-9A-F]{2})*$/)
        expect(decodeURIComponent(encoded)).toBe(text)
      }),
    )
    expect(encodeRfc3986("a b!'()*/+=")).toBe('a%20b%21%27%28%29%2A%2F%2B%3D')
  })
})

describe('canonical URI', () => {
  it('collapses empty segments and dot segments, keeps a trailing slash, encodes raw segments again', () => {
    const uri = (path: string) => canonicalUri(pathSegments(path), path.endsWith('/'))
    expect(uri('/')).toBe('/')
    expect(uri('//')).toBe('/')
    expect(uri('/_doppel/cloud/sts//')).toBe('/_doppel/cloud/sts/')
    expect(uri('/a/./b/../c')).toBe('/a/c')
    expect(uri('/a%2Fb/c d')).toBe('/a%252Fb/c%20d')
  })
})

describe('canonical query', () => {
  it('does not depend on parameter order, drops X-Amz-Signature, and writes spaces as %20', () => {
    const pair = fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 8 }))
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 6 }), (pairs) => {
        const query = (list: [string, string][]) => list.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')
        const reversed = [...pairs].reverse()
        expect(canonicalQuery(query(pairs))).toBe(canonicalQuery(query(reversed)))
        expect(canonicalQuery(`${query(pairs)}&X-Amz-Signature=abc`)).toBe(canonicalQuery(query(pairs)))
      }),
    )
    expect(canonicalQuery('?b=2&a=x+y&a=1&flag')).toBe('a=1&a=x%20y&b=2&flag=')
    expect(canonicalQuery('')).toBe('')
  })
})

describe('canonical headers', () => {
  it('trims values and collapses inner whitespace; the host falls back to the URL', () => {
    const headers = new Headers({ 'x-amz-date': '20240305T094127Z', 'x-custom': '  a   b \t c ' })
    expect(canonicalHeaders(['host', 'x-amz-date', 'x-custom'], headers, 'sts.amazonaws.com')).toBe(
      'host:sts.amazonaws.com\nx-amz-date:20240305T094127Z\nx-custom:a b c\n',
    )
  })
})

describe('auth material', () => {
  it('any Authorization header or query either parses or fails with a CloudError (never a crash)', () => {
    fc.assert(
      fc.property(fc.string(), fc.option(fc.string()), fc.string(), (authorization, date, query) => {
        const headers = new Headers()
        try {
          headers.set('authorization', authorization)
          if (date !== null) headers.set('x-amz-date', date)
        } catch {
          return
        }
        for (const url of [new URL('https://sts.amazonaws.com/'), new URL(`https://sts.amazonaws.com/?${encodeURIComponent(query)}&X-Amz-Credential=${encodeURIComponent(query)}`)]) {
          try {
            readAuthMaterial(url, url.search.length > 1 ? new Headers() : headers)
          } catch (error) {
            expect(error).toBeInstanceOf(CloudError)
          }
        }
      }),
      { numRuns: 500 },
    )
  })
})
