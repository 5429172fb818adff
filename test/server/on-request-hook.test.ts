import { afterEach, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { createDoppelServer, listen, type RunningServer } from '../../src/faces/server/index.ts'
import { doppelWarningsDuring } from '../support/doppel-warnings.ts'
import { rawExchange, statuses } from './raw-http.ts'

// The access-log hook is the caller's code: a throw in it changes no answer, stops no request pipelined
// behind it, and is reported once as a process warning (not as an unhandled rejection).
let running: RunningServer | undefined
afterEach(() => running?.close())

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-Token: root\r\n\r\n`
const post = (path: string, body: string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-Token: root\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`

it('a hook that throws: every pipelined request is answered, in order, and one warning says why', async () => {
  const logged: string[] = []
  const server = createDoppelServer(createDoppel({ seed: 1 }), {
    onRequest(line) {
      logged.push(`${line.method} ${line.path} ${line.status}`)
      throw new Error('the log is full')
    },
  })
  running = await listen(server, 0, '127.0.0.1')
  const port = running.port
  let text = ''
  const warnings = await doppelWarningsDuring(async () => {
    text = await rawExchange(port, [post('/v1/auth/cloud/role/logged', '{"auth_type":"ec2","bound_ami_id":"ami-1"}') + get('/v1/auth/cloud/role/logged') + get('/v1/auth/cloud/role/absent')], 3)
  })
  expect(statuses(text)).toEqual([204, 200, 404])
  expect(logged).toEqual(['POST /v1/auth/cloud/role/logged 204', 'GET /v1/auth/cloud/role/logged 200', 'GET /v1/auth/cloud/role/absent 404'])
  expect(warnings).toEqual(['doppel: the onRequest callback threw (the log is full); doppel goes on, and later throws are not reported'])
})

it('a hook that throws does not hold the stop: close() resolves at once', async () => {
  const server = createDoppelServer(createDoppel({ seed: 1 }), {
    onRequest() {
      throw new Error('no')
    },
  })
  running = await listen(server, 0, '127.0.0.1')
  const port = running.port
  await doppelWarningsDuring(async () => {
    expect(statuses(await rawExchange(port, [get('/v1/auth/cloud/role/absent')], 1))).toEqual([404])
  })
  const started = performance.now()
  await running.close(5000)
  running = undefined
  expect(performance.now() - started).toBeLessThan(1000)
})
