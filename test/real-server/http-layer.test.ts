// The HTTP layer's edges, sent byte for byte to the real server scripts/real-server.sh starts and to doppel
// serve with the vault profile: each answer's status (and, where both servers make it the same, its body)
// must agree. The conformance suite cannot send these: repeated headers, bytes that are no UTF-8, the
// asterisk target.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { createDoppelServer, listen, type RunningServer } from '../../src/faces/server/index.ts'
import { rawExchange, statuses } from '../server/raw-http.ts'
import { realServer } from './real-server-env.ts'

const server = realServer()

/** One raw request: its request line, header lines (one character a byte) and body; Host, Connection and Content-Length added. */
type Exchange = { line: string; headers?: string[]; body?: string }

describe.skipIf(!server)('the HTTP layer, against the real server', () => {
  let doppel: RunningServer
  const real = () => new URL(server!.addr)

  async function send(port: number, host: string, { line, headers = [], body }: Exchange): Promise<{ status: number; body: string; head: string }> {
    const length = body === undefined ? [] : [`Content-Length: ${body.length}`]
    const head = [line, `Host: ${host}`, 'Connection: close', ...length, ...headers].join('\r\n')
    const text = await rawExchange(port, [Buffer.from(`${head}\r\n\r\n${body ?? ''}`, 'latin1')], 1)
    return { status: statuses(text)[0]!, body: text.slice(text.indexOf('\r\n\r\n') + 4), head: text.slice(0, text.indexOf('\r\n\r\n')) }
  }
  const both = (exchange: Exchange) =>
    Promise.all([send(Number(real().port), real().host, exchange), send(doppel.port, `127.0.0.1:${doppel.port}`, exchange)])

  beforeAll(async () => {
    doppel = await listen(createDoppelServer(createDoppel({ profile: 'vault', rootTokens: [server!.token] })), 0, '127.0.0.1')
  })
  afterAll(() => doppel?.close())

  const lookupSelf = 'GET /v1/auth/token/lookup-self HTTP/1.1'
  const token = () => server!.token

  it.each<[string, () => string[]]>([
    ['Bearer', () => [`Authorization: Bearer ${token()}`]],
    ['Bearer, spaces after it', () => [`Authorization: Bearer   ${token()}`]],
    ['bearer', () => [`Authorization: bearer ${token()}`]],
    ['a tab after Bearer', () => [`Authorization: Bearer\t${token()}`]],
    ['Bearer alone', () => ['Authorization: Bearer ']],
    ['a UTF-8 no-break space after the token', () => [`Authorization: Bearer ${token()}\xc2\xa0`]],
    ['a lone 0xA0 byte after the token', () => [`Authorization: Bearer ${token()}\xa0`]],
    ['an ideographic space before the token', () => [`Authorization: Bearer \xe3\x80\x80${token()}`]],
    ['the token header twice, right first', () => [`X-Vault-Token: ${token()}`, 'X-Vault-Token: nope']],
    ['the token header twice, right second', () => ['X-Vault-Token: nope', `X-Vault-Token: ${token()}`]],
    ['an empty token header, then Bearer', () => ['X-Vault-Token:', `Authorization: Bearer ${token()}`]],
    ['a wrong token header, then Bearer', () => ['X-Vault-Token: nope', `Authorization: Bearer ${token()}`]],
    ['Basic, then Bearer', () => ['Authorization: Basic eDp5', `Authorization: Bearer ${token()}`]],
    ['two Bearer values, right second', () => ['Authorization: Bearer nope', `Authorization: Bearer ${token()}`]],
  ])('reads the token as the real server does: %s', async (_, headers) => {
    const [fromReal, fromDoppel] = await both({ line: lookupSelf, headers: headers() })
    expect(fromDoppel.status).toBe(fromReal.status)
  })

  it('answers OPTIONS * as the real server does: 200, no body', async () => {
    const [fromReal, fromDoppel] = await both({ line: 'OPTIONS * HTTP/1.1' })
    expect([fromDoppel.status, fromDoppel.body]).toEqual([fromReal.status, fromReal.body])
    expect(fromReal.status).toBe(200)
  })

  it.each([
    ['GET /v1/sys/health?activecode=299 HTTP/1.1'],
    ['GET /v1/sys/health?activecode=%2B204 HTTP/1.1'],
    ['GET /v1/sys/health?activecode=+204 HTTP/1.1'],
    ['GET /v1/sys/health?standbyok=yes HTTP/1.1'],
    ['HEAD /v1/sys/health HTTP/1.1'],
    ['GET /v1/sys/leader HTTP/1.1'],
    ['GET /v1/sys/init HTTP/1.1'],
  ])('answers the dev server status paths with the real server status, not to be cached: %s', async (line) => {
    const [fromReal, fromDoppel] = await both({ line })
    expect(fromDoppel.status).toBe(fromReal.status)
    const noStore = (head: string) => /^cache-control: no-store$/im.test(head)
    expect([noStore(fromReal.head), noStore(fromDoppel.head)]).toEqual([true, true])
  })

  it.each([[[]], [['Content-Type: text/']], [['Content-Type: text/plain extra']], [['Content-Type: application/json']], [['Content-Type: application/merge-patch+json; a=1; a=2']], [['Content-Type: Application/Merge-Patch+JSON;']]])(
    "reads a PATCH's Content-Type as the real server does: %j",
    async (lines) => {
      // A mount of the method on both: the route answers only once the Content-Type passes.
      const path = `patch-${process.pid}`
      const enable = { line: `POST /v1/sys/auth/${path} HTTP/1.1`, headers: [`X-Vault-Token: ${token()}`, 'Content-Type: application/json'], body: '{"type":"aws"}' }
      await both(enable)
      try {
        const [fromReal, fromDoppel] = await both({ line: `PATCH /v1/auth/${path}/role/x HTTP/1.1`, headers: [`X-Vault-Token: ${token()}`, ...lines], body: '{}' })
        expect([fromDoppel.status, fromDoppel.body]).toEqual([fromReal.status, fromReal.body])
      } finally {
        await both({ line: `DELETE /v1/sys/auth/${path} HTTP/1.1`, headers: [`X-Vault-Token: ${token()}`] })
      }
    },
  )

  it("writes JSON as Go's encoder does: <, > and & and U+2028 escaped, in answers and in errors", async () => {
    const path = `html-${process.pid}`
    const auth = [`X-Vault-Token: ${token()}`, 'Content-Type: application/json']
    await both({ line: `POST /v1/sys/auth/${path} HTTP/1.1`, headers: auth, body: '{"type":"aws"}' })
    try {
      // The role's value holds the characters raw (UTF-8 for U+2028, one character a byte here).
      const role = { line: `POST /v1/auth/${path}/role/r HTTP/1.1`, headers: auth, body: '{"auth_type":"ec2","bound_ami_id":"ami-<&>\xe2\x80\xa8x"}' }
      for (const answer of await both(role)) expect(answer.status).toBe(204)
      // Random ids aside; OpenBao leaves mount_type out, where Vault and doppel write it (http-unknown-fields.yaml).
      const withoutId = (body: string) => body.replace(/"(request|role)_id":"[^"]*"/g, '').replace(',"mount_type":"aws"', '')
      const [fromReal, fromDoppel] = await both({ line: `GET /v1/auth/${path}/role/r HTTP/1.1`, headers: auth })
      expect(fromReal.body).toContain('ami-\\u003c\\u0026\\u003e\\u2028x')
      expect(withoutId(fromDoppel.body)).toBe(withoutId(fromReal.body))
      const [refusedReal, refusedDoppel] = await both({ line: `GET /v1/auth/${path}/role/%3Cnope%3E HTTP/1.1`, headers: auth })
      expect([refusedDoppel.status, refusedDoppel.body]).toEqual([refusedReal.status, refusedReal.body])
    } finally {
      await both({ line: `DELETE /v1/sys/auth/${path} HTTP/1.1`, headers: [`X-Vault-Token: ${token()}`] })
    }
  })

  it('tells a form from JSON as the real server does: by the Content-Type as Go parses it, then the first 512 bytes', async () => {
    const path = `form-${process.pid}`
    const auth = [`X-Vault-Token: ${token()}`]
    const type = (value: string) => [...auth, `Content-Type: ${value}`]
    await both({ line: `POST /v1/sys/auth/${path} HTTP/1.1`, headers: auth, body: '{"type":"aws"}' })
    try {
      const role = `/v1/auth/${path}/role/r HTTP/1.1`
      await both({ line: `POST ${role}`, headers: type('application/json'), body: '{"auth_type":"ec2","bound_ami_id":"ami-1"}' })
      const form = 'application/x-www-form-urlencoded'
      // Each write sets a TTL of its own when it is read as intended; an unknown field (a JSON text read as a
      // form's key) leaves the one before. A Content-Type Go cannot parse names no form: the body is JSON.
      const writes: [string, string][] = [
        [form, 'token_ttl=61'],
        [`${form}; charset`, '{"token_ttl":62}'],
        [`${form}; a=1; a=2`, '{"token_ttl":63}'],
        [`${form}/x`, '{"token_ttl":64}'],
        [`${form};`, 'token_ttl=65'],
        [`Application/X-WWW-Form-Urlencoded ; charset="utf-8"`, 'token_ttl=66'],
        [form, `${' '.repeat(511)}{"token_ttl":67}`],
        [form, `${' '.repeat(512)}{"token_ttl":68}`],
        [form, `${'\n'.repeat(600)}token_ttl=69`],
        [`${form}; charset`, 'token_ttl=70'],
      ]
      for (const [contentType, body] of writes) {
        const [wroteReal, wroteDoppel] = await both({ line: `POST ${role}`, headers: type(contentType), body })
        expect(wroteDoppel.status, `${contentType}: ${body.trim()}`).toBe(wroteReal.status)
        const [readReal, readDoppel] = await both({ line: `GET ${role}`, headers: auth })
        const ttl = (answer: { body: string }) => (JSON.parse(answer.body) as { data: { token_ttl: number } }).data.token_ttl
        expect(ttl(readDoppel), `${contentType}: ${body.trim()}`).toBe(ttl(readReal))
      }
    } finally {
      await both({ line: `DELETE /v1/sys/auth/${path} HTTP/1.1`, headers: auth })
    }
  })

  it('answers an unknown system path as the real server does, with a token and without', async () => {
    for (const headers of [[`X-Vault-Token: ${token()}`], []]) {
      const [fromReal, fromDoppel] = await both({ line: 'GET /v1/sys/doppel-nope HTTP/1.1', headers })
      expect([fromDoppel.status, fromDoppel.body]).toEqual([fromReal.status, fromReal.body])
    }
  })
})
