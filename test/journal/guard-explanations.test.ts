import { afterAll, beforeAll, expect, it } from 'vitest'
import { createDoppel, type Doppel } from '../../src/features/doppel/index.ts'
import { createDoppelServer, listen, type RunningServer } from '../../src/faces/server/index.ts'
import { rawExchange, statuses } from '../server/raw-http.ts'

// The server's guard refuses some requests before any service sees them; each is journaled with the rule
// that refused it and the value seen, while the client gets the same answer as before.
let doppel: Doppel
let running: RunningServer
let open: RunningServer

beforeAll(async () => {
  doppel = createDoppel({ seed: 1 })
  running = await listen(createDoppelServer(doppel), 0, '127.0.0.1')
  // Bound beyond loopback (every interface; called on 127.0.0.1), where the control API needs a token.
  open = await listen(createDoppelServer(doppel), 0, '0.0.0.0')
})
afterAll(async () => {
  await running.close()
  await open.close()
})

const lastExplanation = () => doppel.journal.entries().at(-1)?.explanation

it('journals a Host the guard refuses, naming the flag that admits it', async () => {
  const text = await rawExchange(running.port, ['GET /v1/auth/cloud/roles?list=true HTTP/1.1\r\nHost: rebound.example\r\nX-Service-Token: root\r\n\r\n'], 1)
  expect(statuses(text)).toEqual([403])
  expect(lastExplanation()).toMatchObject({ rule: 'Host check', seen: 'rebound.example', hint: 'start doppel with --allowed-host rebound.example' })
})

it('journals a cross-site control call, a control write of the wrong media type and a call beyond loopback without a token', async () => {
  const crossSite = await fetch(`${running.url}/_doppel/reset`, { method: 'POST', headers: { Origin: 'https://attacker.example', 'Content-Type': 'application/json' }, body: '{}' })
  expect(crossSite.status).toBe(403)
  expect(lastExplanation()).toMatchObject({ rule: 'cross-site check', seen: 'Origin https://attacker.example' })

  const mediaType = await fetch(`${running.url}/_doppel/clock`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{"advance":"1h"}' })
  expect(mediaType.status).toBe(415)
  expect(lastExplanation()).toMatchObject({ rule: 'control write media type', seen: 'text/plain', expected: 'application/json' })

  const noToken = await fetch(`http://127.0.0.1:${open.port}/_doppel/state`)
  expect(noToken.status).toBe(401)
  expect(lastExplanation()).toMatchObject({ rule: 'control token beyond loopback', seen: 'no root or control token' })
  expect(doppel.journal.entries().at(-1)).toMatchObject({ method: 'GET', status: 401, service: 'control' })
})
