import { request as httpRequest } from 'node:http'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { createHandlers } from '../../src/faces/msw/index.ts'
import { createDoppelServer, listen, type RunningServer } from '../../src/faces/server/index.ts'

const TOKEN = { 'X-Service-Token': 'root', 'Content-Type': 'application/json' }
const ROLE = JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-1' })

describe('management endpoints through MSW (plain fetch)', () => {
  const doppel = createDoppel({ seed: 3 })
  const server = setupServer(...createHandlers(doppel, { baseUrl: 'http://vault.test', cloud: false }))
  beforeAll(() => server.listen())
  afterAll(() => server.close())

  it('writes, reads and lists a role', async () => {
    const write = await fetch('http://vault.test/v1/auth/cloud/role/web', { method: 'POST', headers: TOKEN, body: ROLE })
    expect(write.status).toBe(204)
    const read = await fetch('http://vault.test/v1/auth/cloud/role/web', { headers: TOKEN })
    expect(read.headers.get('cache-control')).toBe('no-store')
    expect((await read.json()).data.bound_ami_id).toEqual(['ami-1'])
    const list = await fetch('http://vault.test/v1/auth/cloud/roles?list=true', { headers: TOKEN })
    expect((await list.json()).data.keys).toEqual(['web'])
  })
})

describe('management endpoints through the HTTP server (LIST verb included)', () => {
  const doppel = createDoppel({ seed: 4 })
  let running: RunningServer
  beforeAll(async () => {
    running = await listen(createDoppelServer(doppel), 0, '127.0.0.1')
  })
  afterAll(() => running.close())

  function send(method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${running.url}${path}`, { method, headers: TOKEN }, (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode!, text }))
      })
      req.on('error', reject)
      req.end(body)
    })
  }

  it('writes a role and lists it with LIST', async () => {
    expect((await send('POST', '/v1/auth/cloud/role/db', ROLE)).status).toBe(204)
    const listed = await send('LIST', '/v1/auth/cloud/roles')
    expect(listed.status).toBe(200)
    expect(JSON.parse(listed.text).data.keys).toEqual(['db'])
    const refused = await send('POST', '/v1/auth/cloud/role/db', '{')
    expect(refused).toEqual({ status: 400, text: '{"errors":["error parsing JSON"]}\n' })
  })
})
