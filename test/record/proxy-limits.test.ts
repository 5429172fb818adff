// The recorder's proxy against upstreams that misbehave (answers past the limit, resets mid-body,
// compressed answers), an --out it cannot use, and SigV4 clients whose signature covers Host.
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts'
import { createServer, type Server } from 'node:http'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { main } from '../../src/cli/main.ts'
import { startRecord } from '../../src/cli/record-command.ts'
import { serve } from '../../src/cli/serve-command.ts'
import type { DoppelServer } from '../../src/index.ts'
import { BODY_LIMIT } from '../../src/faces/record/index.ts'
import { fakeIo } from '../cli/helpers.ts'

const temps: string[] = []
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'doppel-record-limits-'))
  temps.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true })
})

describe('an upstream that misbehaves', () => {
  let upstream: Server
  let base = ''
  let sentPastLimit = 0
  beforeAll(async () => {
    upstream = createServer((request, response) => {
      if (request.url === '/endless') {
        // No length: the proxy only knows it is too large by reading.
        response.writeHead(200, { 'Content-Type': 'application/octet-stream' })
        const chunk = Buffer.alloc(1024 * 1024, 1)
        let sent = 0
        const more = () => {
          while (!response.destroyed && response.write(chunk)) sent += chunk.length
          if (sent > BODY_LIMIT) sentPastLimit = sent
        }
        response.on('drain', more)
        more()
        return
      }
      if (request.url === '/declared') {
        response.writeHead(200, { 'Content-Length': String(BODY_LIMIT + 1) })
        response.write('x')
        return
      }
      if (request.url === '/reset') {
        response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' })
        response.write('{"data":')
        setTimeout(() => request.socket.destroy(), 20)
        return
      }
      if (request.url === '/gzip') {
        response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' })
        response.end(gzipSync(JSON.stringify({ ok: 'compressed' })))
        return
      }
      response.writeHead(200, { 'Content-Type': 'application/json' })
      response.end('{"ok":true}')
    })
    await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done))
    base = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`
  })
  afterAll(() => {
    upstream.closeAllConnections()
    upstream.close()
  })

  test('an answer past the limit is a 502 naming it, is never held whole, and is left out of the scenario', async () => {
    const out = temp()
    const { io } = fakeIo()
    const session = (await startRecord(['--upstream', base, '--port', '0', '--out', out, '--name', 'limits', '--quiet'], io))!
    try {
      for (const path of ['/endless', '/declared']) {
        const response = await fetch(`${session.url}${path}`)
        expect(response.status, path).toBe(502)
        expect(((await response.json()) as { errors: string[] }).errors[0]).toBe(`doppel: upstream ${base} its answer is over ${BODY_LIMIT} bytes, the most doppel record holds`)
      }
      // Less than twice the limit went out before the proxy hung up (socket buffers aside).
      expect(sentPastLimit).toBeLessThan(2 * BODY_LIMIT)
      expect((await fetch(`${session.url}/fine`)).status).toBe(200)
    } finally {
      await session.stop()
    }
    const yaml = readFileSync(join(out, 'limits.yaml'), 'utf8')
    expect(yaml).toContain('3 exchanges, 2 refused by the proxy left out')
    expect(yaml).not.toContain('/endless')
  }, 60_000)

  test('an upstream that resets mid-body is a 502, not a 500; a compressed answer arrives decoded', async () => {
    const out = temp()
    const { io } = fakeIo()
    const session = (await startRecord(['--upstream', base, '--port', '0', '--out', out, '--name', 'reset', '--quiet'], io))!
    try {
      const reset = await fetch(`${session.url}/reset`)
      expect(reset.status).toBe(502)
      expect(((await reset.json()) as { errors: string[] }).errors[0]).toMatch(/^doppel: upstream .* the answer broke off/)
      const gzip = await fetch(`${session.url}/gzip`, { headers: { 'Accept-Encoding': 'gzip' } })
      expect(await gzip.json()).toEqual({ ok: 'compressed' })
    } finally {
      await session.stop()
    }
    expect(readFileSync(join(out, 'reset.yaml'), 'utf8')).toContain('ok: compressed')
  })
})

describe('--out', () => {
  test('one that cannot be made is one line and exit 1 at start, within a second', async () => {
    const parent = temp()
    writeFileSync(join(parent, 'a-file'), '')
    const { out, io } = fakeIo()
    const started = performance.now()
    const code = await main(['record', '--upstream', 'http://127.0.0.1:8200', '--port', '0', '--out', join(parent, 'a-file', 'sub')], io)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(code).toBe(1)
    expect(out.stdout).toBe('')
    expect(out.stderr).toMatch(/^doppel record: cannot write to --out .*a-file\/sub: ENOTDIR[^\n]*\n$/)
  })
})

describe('SigV4 clients through the proxy', () => {
  let upstream: DoppelServer
  beforeAll(async () => {
    upstream = (await serve(['--port', '0', '--quiet'], fakeIo().io))!
  })
  afterAll(async () => upstream.close())

  test('an AWS SDK call keeps the Host its signature covers, and succeeds', async () => {
    const out = temp()
    const { io } = fakeIo()
    const session = (await startRecord(['--upstream', upstream.main.url, '--port', '0', '--out', out, '--quiet'], io))!
    try {
      const created = await fetch(`${upstream.main.url}/_doppel/cloud/principals`, {
        method: 'POST',
        headers: { 'X-Service-Token': 'root', 'Content-Type': 'application/json' },
        body: JSON.stringify({ type: 'user', name: 'sdk' }),
      })
      const user = (await created.json()) as { arn: string; access_key_id: string; secret_access_key: string }
      const sts = new STSClient({
        region: 'us-east-1',
        maxAttempts: 1,
        endpoint: `${session.url}/_doppel/cloud/sts`,
        credentials: { accessKeyId: user.access_key_id, secretAccessKey: user.secret_access_key },
      })
      expect((await sts.send(new GetCallerIdentityCommand({}))).Arn).toBe(user.arn)
      sts.destroy()
    } finally {
      await session.stop()
    }
  })

  // Issue 34: node:http sends an empty PUT chunked unless told its length, and a chunked body is a body.
  test('an empty-bodied PUT (the IMDSv2 token request) goes through as it came, with no body added', async () => {
    const { io } = fakeIo()
    const session = (await startRecord(['--upstream', upstream.main.url, '--port', '0', '--out', temp(), '--quiet'], io))!
    try {
      const created = await fetch(`${upstream.main.url}/_doppel/cloud/instances`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })
      const { instance_id } = (await created.json()) as { instance_id: string }
      const token = await fetch(`${session.url}/_doppel/cloud/imds/${instance_id}/latest/api/token`, { method: 'PUT', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '60' } })
      expect(token.status).toBe(200)
      const metadata = await fetch(`${session.url}/_doppel/cloud/imds/${instance_id}/latest/meta-data/instance-id`, { headers: { 'X-aws-ec2-metadata-token': await token.text() } })
      expect(await metadata.text()).toBe(instance_id)
    } finally {
      await session.stop()
    }
  })
})
