import { afterAll, beforeAll, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { createDoppelServer, listen, type RunningServer } from '../../src/faces/server/index.ts'
import { rawExchange, statuses } from './raw-http.ts'

// Requests pipelined on one connection take effect in the order they were sent: a read behind a write
// sees the write, whatever the bodies' sizes and the TCP segmentation.
let running: RunningServer

beforeAll(async () => {
  running = await listen(createDoppelServer(createDoppel({ seed: 1 })), 0, '127.0.0.1')
})
afterAll(() => running.close())

const post = (path: string, body: string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-Token: root\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-Token: root\r\n\r\n`
const list = (path: string) => `LIST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-Token: root\r\n\r\n`
const bodies = (text: string) => text.split(/HTTP\/1\.1 /).slice(1)

it('a GET pipelined behind a POST reads what the POST wrote', async () => {
  for (let round = 0; round < 10; round++) {
    const role = `pipelined-${round}`
    const text = await rawExchange(running.port, [post(`/v1/auth/cloud/role/${role}`, '{"auth_type":"ec2","bound_ami_id":"ami-1"}') + get(`/v1/auth/cloud/role/${role}`)], 2)
    expect(statuses(text)).toEqual([204, 200])
    expect(bodies(text)[1]).toContain('"bound_ami_id":["ami-1"]')
  }
})

it('a LIST and a DELETE pipelined behind writes see them, in order', async () => {
  const text = await rawExchange(
    running.port,
    [
      post('/v1/auth/cloud/role/first', '{"auth_type":"ec2","bound_ami_id":"ami-1"}') +
        post('/v1/auth/cloud/role/second', JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-2', token_policies: 'x'.repeat(20_000) })) +
        list('/v1/auth/cloud/roles') +
        `DELETE /v1/auth/cloud/role/first HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-Token: root\r\n\r\n` +
        get('/v1/auth/cloud/role/first'),
    ],
    5,
  )
  expect(statuses(text)).toEqual([204, 204, 200, 204, 404])
  expect(bodies(text)[2]).toMatch(/"keys":\[[^\]]*"first"[^\]]*"second"/)
})
