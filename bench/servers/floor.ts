// The floor of the server benchmark: bare node:http answering a small constant JSON body.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

const BODY = JSON.stringify({ request_id: 'static', data: { ok: true } }) + '\n'
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) })
  res.end(BODY)
})
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port }) + '\n'))
