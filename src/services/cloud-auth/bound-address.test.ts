import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BoundAddressError, parseBoundAddress } from './bound-address.ts'

describe('token_bound_cidrs items (go-sockaddr)', () => {
  it('reads addresses and blocks in their read form', () => {
    expect(parseBoundAddress('10.0.0.1')).toBe('10.0.0.1')
    expect(parseBoundAddress('10.0.0.1/32')).toBe('10.0.0.1')
    expect(parseBoundAddress('10.1.2.3/8')).toBe('10.1.2.3/8')
    expect(parseBoundAddress('10.0.0.1:8200')).toBe('10.0.0.1:8200')
    expect(parseBoundAddress('::ffff:1.2.3.4')).toBe('1.2.3.4')
    expect(parseBoundAddress('2001:DB8::1')).toBe('2001:db8::1')
    expect(parseBoundAddress('2001:db8:0:0:1:0:0:1/128')).toBe('2001:db8::1:0:0:1')
    expect(parseBoundAddress('fe80::/10')).toBe('fe80::/10')
    expect(parseBoundAddress('[::1]:8200')).toBe('[::1]:8200')
    expect(parseBoundAddress('./socket')).toBe('./socket')
    // The quirk: anything else with a slash passes as a UNIX socket path...
    expect(parseBoundAddress('run/vault.sock')).toBe('run/vault.sock')
    // ...except an address with an impossible prefix, which doppel refuses (issue 14).
    expect(() => parseBoundAddress('1.2.3.4/33')).toThrow(BoundAddressError)
  })

  it('refuses everything else with the real service’s text', () => {
    for (const bad of ['', 'x', '256.0.0.1', '01.2.3.4', '1:2:3', 'é', '/']) {
      expect(() => parseBoundAddress(bad)).toThrow(BoundAddressError)
    }
    expect(() => parseBoundAddress('é')).toThrow('error parsing address "é": Unable to convert "\\u00e9" to an IPv4 or IPv6 address, or a UNIX Socket')
  })

  it('reads every IPv4 address as itself', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        expect(parseBoundAddress(ip)).toBe(ip)
      }),
    )
  })

  it('throws only BoundAddressError', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          parseBoundAddress(text)
        } catch (error) {
          expect(error).toBeInstanceOf(BoundAddressError)
        }
      }),
    )
  })
})
