// A --target (or --upstream, --registry-url) that no request could be sent to is named as a usage
// mistake, with what is wrong with it, before anything runs: not reported later as an unreachable server.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { baseUrlProblem } from '../../src/cli/flags.ts'
import { doppel } from './helpers.ts'

const SCENARIO = 'scenarios/cloud-auth/roles-crud.yaml'

describe('--target <url>', () => {
  it.each([
    ['http://127.0.0.1:1', 'port 1 is one fetch refuses to connect to (a "bad port" of the Fetch standard); choose another port'],
    ['http://127.0.0.1:6000', 'port 6000 is one fetch refuses to connect to (a "bad port" of the Fetch standard); choose another port'],
    ['http://127.0.0.1:99999', 'port 99999 is out of range; expected 1 to 65535'],
    ['http://127.0.0.1:0', 'port 0 is out of range; expected 1 to 65535'],
    ['http://127.0.0.1:82a', 'the port "82a" is not a number'],
    ['ftp://127.0.0.1:8200', 'the scheme is "ftp"; expected http or https'],
    ['http://', 'no host; expected http(s)://host[:port][/path]'],
    ['http://:8200', 'no host; expected http(s)://host[:port][/path]'],
    ['http://127.0.0.1:8200/v1?x=1', 'a query cannot be part of a base URL: request paths are appended to it'],
    ['http://127.0.0.1:8200#top', 'a fragment cannot be part of a base URL: request paths are appended to it'],
    ['http://user:secret@127.0.0.1:8200', 'a user name or password in the URL is refused by fetch; pass the token with --token'],
    ['http://[::1:8200', 'the host "[::1:8200" is not a valid host name or address'],
    ['http://exa mple:8200', 'the host "exa mple" is not a valid host name or address'],
  ])('%s: one line naming what is wrong, exit 1', async (url, problem) => {
    const result = await doppel('run', SCENARIO, '--target', url)
    expect(result).toEqual({ code: 1, stdout: '', stderr: `doppel run: --target ${url}: ${problem}\nRun "doppel run --help" for usage.\n` })
  })

  it('is checked the same on conformance, and as --upstream and --registry-url', async () => {
    expect((await doppel('conformance', '--target', 'http://127.0.0.1:1')).stderr).toMatch(/^doppel conformance: --target http:\/\/127\.0\.0\.1:1: port 1 is one fetch refuses/)
    expect((await doppel('record', '--upstream', 'http://127.0.0.1:9', '--out', 'x')).stderr).toMatch(/^doppel record: --upstream http:\/\/127\.0\.0\.1:9: port 9 is one fetch refuses/)
    expect((await doppel('compare', '--upstream', 'https://h:70000')).stderr).toMatch(/^doppel compare: --upstream https:\/\/h:70000: port 70000 is out of range/)
    expect((await doppel('conformance', '--registry-url', 'file:///tmp')).stderr).toMatch(/^doppel conformance: --registry-url file:\/\/\/tmp: the scheme is "file"/)
  })

  it('accepts a base URL with a path, an IPv6 host, a default port and a trailing slash', () => {
    for (const url of ['http://127.0.0.1:8200', 'https://vault.example.test/prefix/', 'http://[::1]:8200', 'http://localhost:', 'HTTP://h:65535']) {
      expect(baseUrlProblem(url), url).toBeUndefined()
    }
  })

  it('accepts only http(s) URLs without credentials, query or fragment, and never throws', () => {
    fc.assert(
      fc.property(fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.string()), (url) => {
        const problem = baseUrlProblem(url)
        if (problem !== undefined) return
        // Accepted: a URL that parses, is http(s), carries no credentials, query or fragment.
        const parsed = new URL(url)
        expect(['http:', 'https:']).toContain(parsed.protocol)
        expect(parsed.username + parsed.password + parsed.search + parsed.hash).toBe('')
      }),
    )
  })
})
