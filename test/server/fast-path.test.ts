import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { createDoppelServer, listen, type RunningServer } from '../../src/faces/server/index.ts'

interface Exchange {
  status: number
  headers: Record<string, string>
  body: string
}

/** Headers a real Response carries too; the transport's own (date, connection, keep-alive) left out. */
function comparable(headers: IncomingHttpHeaders | Headers): Record<string, string> {
  const out: Record<string, string> = {}
  const entries = headers instanceof Headers ? [...headers] : Object.entries(headers).map(([k, v]) => [k, String(v)] as const)
  for (const [name, value] of entries) if (!['date', 'connection', 'keep-alive', 'content-length'].includes(name)) out[name] = value
  return out
}

interface Sent {
  method: string
  path: string
  /** Flat name/value list, repeated names kept. */
  headers?: string[]
  body?: string | Buffer
  /** Send the body chunked (no Content-Length). */
  chunked?: boolean
}

function overHttp(url: string, sent: Sent): Promise<Exchange & { contentLength: string | undefined }> {
  return new Promise((resolve, reject) => {
    // Repeated names as arrays: Node writes one line per value.
    const headers: Record<string, string[]> = {}
    const flat = sent.headers ?? []
    for (let i = 0; i < flat.length; i += 2) (headers[flat[i]!] ??= []).push(flat[i + 1]!)
    if (sent.body !== undefined && !sent.chunked) headers['Content-Length'] = [String(Buffer.byteLength(sent.body))]
    const req = httpRequest(`${url}${sent.path}`, { method: sent.method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          headers: comparable(res.headers),
          body: Buffer.concat(chunks).toString('utf8'),
          contentLength: res.headers['content-length'],
        }),
      )
    })
    req.on('error', reject)
    if (sent.body !== undefined) {
      if (sent.chunked) {
        const bytes = Buffer.from(sent.body)
        req.write(bytes.subarray(0, 5))
        req.end(bytes.subarray(5))
        return
      }
      req.end(sent.body)
      return
    }
    req.end()
  })
}

async function inProcess(doppel: ReturnType<typeof createDoppel>, sent: Sent): Promise<Exchange> {
  const headers = new Headers()
  const flat = sent.headers ?? []
  for (let i = 0; i < flat.length; i += 2) headers.append(flat[i]!, flat[i + 1]!)
  const body = sent.method === 'GET' || sent.method === 'HEAD' ? undefined : (sent.body ?? undefined)
  const res = await doppel.fetch(`http://127.0.0.1:8200${sent.path}`, { method: sent.method, headers, body: body as BodyInit | undefined })
  return { status: res.status, headers: comparable(res.headers), body: await res.text() }
}

const ROOT = ['X-Service-Token', 'root']
const JSON_TYPE = ['Content-Type', 'application/json']

// The same requests, in the same order, to two emulators with the same seed: one through the server's
// light request/response path, one through `doppel.fetch` (real Fetch objects). Answers must match.
const SEQUENCE: Sent[] = [
  { method: 'POST', path: '/v1/auth/cloud/role/web', headers: [...ROOT, ...JSON_TYPE], body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-1', ttl: '1h' }) },
  { method: 'GET', path: '/v1/auth/cloud/role/web', headers: ROOT },
  { method: 'POST', path: '/v1/auth/cloud/role/chunked', headers: [...ROOT, ...JSON_TYPE], body: JSON.stringify({ auth_type: 'iam', bound_iam_principal_arn: 'arn:aws:iam::123456789012:user/u' }), chunked: true },
  { method: 'GET', path: '/v1/auth/cloud/role/chunked', headers: ROOT },
  { method: 'POST', path: '/v1/auth/cloud/role/form', headers: [...ROOT, 'Content-Type', 'application/x-www-form-urlencoded'], body: 'auth_type=ec2&bound_ami_id=ami-2&token_policies=a,b' },
  { method: 'GET', path: '/v1/auth/cloud/role/form?help=0', headers: ROOT },
  // A repeated token header: Fetch joins the values ("root, root"), which is no token.
  { method: 'GET', path: '/v1/auth/cloud/role/web', headers: [...ROOT, ...ROOT] },
  { method: 'DELETE', path: '/v1/auth/cloud/role/form', headers: ROOT },
  { method: 'GET', path: '/v1/auth/cloud/roles?list=true', headers: ROOT },
  { method: 'POST', path: '/v1/auth/cloud/role/bad', headers: [...ROOT, ...JSON_TYPE], body: '{"auth_type":' },
  { method: 'GET', path: '/nowhere', headers: [] },
  { method: 'GET', path: '/api/registry/v1/modules/acme/vpc/aws/versions', headers: ['Authorization', 'Bearer root'] },
]

describe('the server fast path answers exactly as doppel.fetch', () => {
  const served = createDoppel({ seed: 16 })
  const direct = createDoppel({ seed: 16 })
  let running: RunningServer
  beforeAll(async () => {
    running = await listen(createDoppelServer(served), 0, '127.0.0.1')
  })
  afterAll(() => running.close())

  it('gives the same status, headers and body for every request of a sequence', async () => {
    for (const sent of SEQUENCE) {
      const http = await overHttp(running.url, sent)
      const fetched = await inProcess(direct, sent)
      expect({ path: sent.path, ...http, contentLength: undefined }).toEqual({ path: sent.path, ...fetched, contentLength: undefined })
      if (http.status !== 204) expect(http.contentLength).toBe(String(Buffer.byteLength(http.body)))
      else expect(http.contentLength).toBeUndefined()
    }
  })

  it('journals the same entries on both faces', async () => {
    const strip = (entries: { method: string; url: string; status: number; service: string }[]) =>
      entries.map(({ method, url, status, service }) => ({ method, path: new URL(url).pathname, status, service }))
    expect(strip(served.journal.entries())).toEqual(strip(direct.journal.entries()))
  })

  it('hands callers of doppel.fetch a real Response', async () => {
    const res = await direct.fetch('http://127.0.0.1:8200/v1/auth/cloud/role/web', { headers: { 'X-Service-Token': 'root' } })
    expect(Object.getPrototypeOf(res)).toBe(Response.prototype)
    expect(res.clone().status).toBe(200)
  })

  it('streams a body over 1 MiB and refuses it as the service does', async () => {
    const big = JSON.stringify({ auth_type: 'ec2', padding: 'x'.repeat(2 * 1024 * 1024) })
    const sent: Sent = { method: 'POST', path: '/v1/auth/cloud/role/big', headers: [...ROOT, ...JSON_TYPE], body: big }
    const http = await overHttp(running.url, sent)
    const fetched = await inProcess(direct, sent)
    expect({ ...http, contentLength: undefined }).toEqual({ ...fetched, contentLength: undefined })
  })
})
