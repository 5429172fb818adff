import { inspect } from 'node:util'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LightUrl, parseUrl } from './light-url.ts'

const PARTS = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash'] as const

/** Every part a parse gives, or its error's name and code when the text is no URL. */
function parts(read: (href: string) => URL, href: string): Record<string, string> | string {
  let url: URL
  try {
    url = read(href)
  } catch (error) {
    return `${(error as Error).name}: ${(error as { code?: string }).code}`
  }
  return {
    ...Object.fromEntries(PARTS.map((part) => [part, url[part]])),
    searchParams: url.searchParams.toString(),
    string: String(url),
    json: JSON.stringify(url),
  }
}

// Pieces near the plain form on every side: cases, numbers read as IPv4, Punycode, default and
// out-of-range ports, dot segments, characters the parser encodes or decodes, fragments and users.
const often = <T>(plain: fc.Arbitrary<T>, odd: fc.Arbitrary<T>) => fc.oneof({ arbitrary: plain, weight: 6 }, { arbitrary: odd, weight: 1 })
const scheme = often(fc.constantFrom('http', 'https'), fc.constantFrom('HTTP', 'ftp', 'ws', 'file'))
const label = often(fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/), fc.constantFrom('xn--abc', 'xn--nxasmq6b', 'A', '0x7f', '127', '1', '01', '256', 'a_b', '', 'é'))
const octet = often(fc.nat(255), fc.constantFrom(256, 300))
const host = often(
  fc.oneof(fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.')), fc.tuple(octet, octet, octet, octet).map((octets) => octets.join('.'))),
  fc.constantFrom('[::1]', 'user@host', 'u:p@host', '127.0.0.1.', '127.1', '010.0.0.1'),
)
const port = often(fc.oneof(fc.constant(''), fc.nat(65535).map((n) => `:${n}`)), fc.constantFrom(':', ':80', ':443', ':0', ':08080', ':65536', ':99999'))
const segment = often(
  fc.stringMatching(/^[A-Za-z0-9\-._~!$&'()*+,;=:@]{0,8}$/),
  fc.constantFrom('.', '..', '%2e', '%2E%2e', '%41', 'a b', 'é', 'a\\b', '{x}', '^', '|', '"', 'a#b', 'a?b=c', "'"),
)
const path = fc.array(segment, { maxLength: 5 }).map((segments) => `/${segments.join('/')}`)
const query = often(
  fc.oneof(fc.constant(''), fc.constant('?'), fc.stringMatching(/^[A-Za-z0-9\-._~!$&()*+,;=:@/?%]{0,12}$/).map((text) => `?${text}`)),
  fc.constantFrom("?a='b'", '?a b', '?a"b', '?a<b>', '?a#frag', '?x=/./y', '?é', '?a\tb'),
)
const text = fc.tuple(scheme, host, port, path, query).map(([s, h, p, pa, q]) => `${s}://${h}${p}${pa}${q}`)

describe('parseUrl', () => {
  it('reads every part as URL does, for text in the plain form and near it', () => {
    fc.assert(
      fc.property(text, (href) => {
        expect(parts(parseUrl, href)).toEqual(parts((h) => new URL(h), href))
      }),
      { numRuns: 5000 },
    )
  })

  it('answers the requests clients send with a light URL, anything else with URL', () => {
    for (const href of ['http://127.0.0.1:8200/v1/auth/cloud/role/dev', 'https://localhost/api/v2/organizations/acme/registry-modules?page%5Bsize%5D=20&q=x', 'http://doppel.test/v1/sys/health?']) {
      expect(parseUrl(href)).toBeInstanceOf(LightUrl)
    }
    for (const href of ['http://127.0.0.1:80/v1', 'http://LOCALHOST/v1', 'http://h/a/../b', 'http://h/%7e', 'http://h/#x', 'http://xn--nxasmq6b/', 'http://[::1]:8200/v1']) {
      expect(parseUrl(href)).not.toBeInstanceOf(LightUrl)
    }
  })

  it('is a URL: instanceof, String, JSON, inspect, and a change made through it reads back as on URL', () => {
    const url = parseUrl('http://127.0.0.1:8200/t/acme/v1/auth/cloud/login?x=1')
    expect(url).toBeInstanceOf(URL)
    expect(inspect(url)).toBe(inspect(new URL('http://127.0.0.1:8200/t/acme/v1/auth/cloud/login?x=1')))
    url.pathname = '/v1/auth/cloud/login'
    url.searchParams.append('y', 'a b')
    url.hash = 'h'
    const real = new URL('http://127.0.0.1:8200/t/acme/v1/auth/cloud/login?x=1')
    real.pathname = '/v1/auth/cloud/login'
    real.searchParams.append('y', 'a b')
    real.hash = 'h'
    expect(parts(() => url, '')).toEqual(parts(() => real, ''))
  })

  it('changes through each setter as URL does', () => {
    const setters = ['href', 'protocol', 'host', 'hostname', 'port', 'pathname', 'search', 'username', 'password', 'hash'] as const
    const value = fc.constantFrom('https://other.test:9/x?y#z', 'https:', 'other.test:9', 'other.test', '9', '/p/../q', '?a=1', 'user', 'pass', '#f', '', 'ftp:', '%')
    fc.assert(
      fc.property(fc.constantFrom(...setters), value, (setter, to) => {
        const href = 'http://127.0.0.1:8200/v1/auth/cloud/role/dev?list=true'
        const light = parseUrl(href)
        const real = new URL(href)
        expect(light).toBeInstanceOf(LightUrl)
        const outcome = (url: URL) => {
          try {
            url[setter] = to
            return undefined
          } catch (error) {
            return (error as Error).name
          }
        }
        expect(outcome(light)).toBe(outcome(real))
        expect(parts(() => light, '')).toEqual(parts(() => real, ''))
      }),
    )
  })
})
