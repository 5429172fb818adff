import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDoppel, type Doppel } from '../../src/features/doppel/index.ts'
import { createDoppelServer, listen, type RunningServer } from '../../src/faces/server/index.ts'
import { rawExchange, statuses } from '../server/raw-http.ts'

// How a request's token is read (docs/reference/cloud-auth.md §1.2), as the real service reads it: the
// first value of the token header; else the first Authorization value starting with "Bearer " (that case,
// one space), the rest trimmed. Each row was tried against the real server (scripts/real-server.sh) with
// curl on lookup-self; the conformance scenario config/http-token-check.yaml runs the single-header rows
// against it in every CI run.

let doppel: Doppel
let running: RunningServer

beforeAll(async () => {
  doppel = createDoppel({ seed: 1 })
  running = await listen(createDoppelServer(doppel), 0, '127.0.0.1')
})

afterAll(() => running.close())

/** The status of lookup-self sent over a raw connection with these header lines, each as written. */
async function lookupSelf(lines: string[]): Promise<number> {
  const head = ['GET /v1/auth/token/lookup-self HTTP/1.1', 'Host: 127.0.0.1', 'Connection: close', ...lines].join('\r\n')
  // Written one byte a character, so that a line can hold any byte.
  return statuses(await rawExchange(running.port, [Buffer.from(`${head}\r\n\r\n`, 'latin1')], 1))[0]!
}

describe('the token a request carries', () => {
  it.each([
    ['Authorization: Bearer root', 200],
    ['Authorization: Bearer   root', 200],
    ['Authorization: bearer root', 403],
    ['Authorization: BEARER root', 403],
    ['Authorization: Bearer\troot', 403],
    ['Authorization: Bearer ', 403],
    ['Authorization: Basic cm9vdDo=', 403],
    // White space is trimmed as Go trims the bytes: a UTF-8 encoded space, not a lone 0xA0 byte.
    ['Authorization: Bearer root\xc2\xa0', 200],
    ['Authorization: Bearer \xe3\x80\x80root', 200],
    ['Authorization: Bearer root\xc2\x85', 200],
    ['Authorization: Bearer root\xa0', 403],
    ['X-Service-Token: root\xa0', 403],
  ])('%j: %i', async (line, status) => {
    expect(await lookupSelf([line])).toBe(status)
  })

  it.each([
    [['X-Service-Token: root', 'X-Service-Token: nope'], 200],
    [['X-Service-Token: nope', 'X-Service-Token: root'], 403],
    [['X-Service-Token:', 'Authorization: Bearer root'], 200],
    [['X-Service-Token: nope', 'Authorization: Bearer root'], 403],
    [['Authorization: Basic cm9vdDo=', 'Authorization: Bearer root'], 200],
    [['Authorization: Bearer nope', 'Authorization: Bearer root'], 403],
  ])('token headers %j: %i (the first value of each counts)', async (lines, status) => {
    expect(await lookupSelf(lines)).toBe(status)
  })

  it('reads a repeated header the same way in process, where Fetch joins its values', async () => {
    const status = async (pairs: [string, string][]) => {
      const headers = new Headers()
      for (const [name, value] of pairs) headers.append(name, value)
      return (await doppel.fetch(new Request('http://127.0.0.1:8200/v1/auth/token/lookup-self', { headers }))).status
    }
    expect(await status([['X-Service-Token', 'root'], ['X-Service-Token', 'nope']])).toBe(200)
    expect(await status([['X-Service-Token', 'nope'], ['X-Service-Token', 'root']])).toBe(403)
    expect(await status([['X-Service-Token', ''], ['Authorization', 'Bearer root']])).toBe(200)
    expect(await status([['Authorization', 'Basic cm9vdDo='], ['Authorization', 'Bearer root']])).toBe(200)
    expect(await status([['Authorization', 'Bearer nope'], ['Authorization', 'Bearer root']])).toBe(403)
  })

  it('reads a management token the same way on the control API', async () => {
    // A snapshot holds secrets: only a management token reads it.
    const snapshot = (lines: string[]) =>
      rawExchange(running.port, [['GET /_doppel/snapshot HTTP/1.1', 'Host: 127.0.0.1', 'Connection: close', ...lines, '', ''].join('\r\n')], 1).then((text) => statuses(text)[0])
    expect(await snapshot(['Authorization: Basic cm9vdDo=', 'Authorization: Bearer root'])).toBe(200)
    expect(await snapshot(['Authorization: bearer root'])).toBe(403)
  })

  it('explains a refused Bearer form to the person testing, not to the client', async () => {
    const answer = await doppel.fetch(new Request('http://127.0.0.1:8200/v1/auth/cloud/roles?list=true', { headers: { Authorization: 'bearer root' } }))
    expect(answer.status).toBe(403)
    expect(await answer.json()).toEqual({ errors: ['permission denied'] })
    expect(doppel.explain(answer)).toMatchObject({ seen: 'no token', hint: 'send one in x-service-token, or as "Authorization: Bearer <token>" (that case, one space)' })
  })
})
