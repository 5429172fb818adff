// Adapter floors for docs/decisions/node-http-adapter.md: a Fetch-style handler answering a constant,
// through doppel's node adapter (`adapter=doppel`) or @hono/node-server's listener (`adapter=hono`).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getRequestListener } from '@hono/node-server'
import { LightResponse } from '../../src/core/light-response.ts'
import { toFetchRequest, writeFetchResponse } from '../../src/core/node-adapter.ts'

const BODY = JSON.stringify({ request_id: 'static', data: { ok: true } }) + '\n'
const HEADERS = { 'content-type': 'application/json' }
const adapter = process.argv[2]
const server =
  adapter === 'hono'
    ? createServer(getRequestListener(() => new Response(BODY, { headers: HEADERS }), { overrideGlobalObjects: true }))
    : createServer((req, res) => {
        void toFetchRequest(req, '127.0.0.1').then((request) => {
          void request.headers.get('x-service-token')
          return writeFetchResponse(res, new LightResponse(BODY, { headers: HEADERS }))
        })
      })
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port }) + '\n'))
