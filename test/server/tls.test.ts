// createDoppelServer with `tls`: real TLS clients (node:https, node:tls) trust the development CA, and the
// server's own work (links, the LIST takeover, time-outs, shutdown) holds over TLS.
import { X509Certificate } from 'node:crypto'
import { once } from 'node:events'
import { request } from 'node:https'
import { connect as connectTcp } from 'node:net'
import { connect } from 'node:tls'
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { createDoppelServer, listen, type RunningServer, createCertificateAuthority, issueServerCertificate } from '../../src/faces/server/index.ts'
import { newDoppel, publish } from '../registry/registry-client.ts'

const ca = createCertificateAuthority()
const pair = issueServerCertificate(ca, ['doppel.example.test', '.corp.test', '192.0.2.7'])

let running: RunningServer | undefined
afterEach(async () => {
  await running?.close()
  running = undefined
})

async function start(options: { headersTimeoutMs?: number } = {}) {
  const doppel = newDoppel()
  running = await listen(createDoppelServer(doppel, { tls: pair, ...options }), 0)
  return { doppel, server: running }
}

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

function get(url: string, options: { ca?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // The certificate is checked against the URL's host, whatever Host header the request sends.
    const servername = new URL(url).hostname
    const req = request(url, { headers: options.headers, servername, ...(options.ca !== undefined && { ca: options.ca }), agent: false }, (res) => {
      let body = ''
      res.on('data', (chunk) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** Writes `payload` on a TLS connection and reads until `answers` responses have come, or the server closes. */
function tlsExchange(port: number, payload: string, answers: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', servername: 'localhost', ca: ca.cert })
    let data = ''
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1')
      if ((data.match(/HTTP\/1\.1 \d{3}/g) ?? []).length >= answers && /\r\n\r\n[\s\S]*\n$/.test(data)) {
        socket.end()
        resolve(data)
      }
    })
    socket.on('close', () => resolve(data))
    socket.on('error', reject)
    socket.on('secureConnect', () => socket.write(payload))
  })
}

describe('the development certificates', () => {
  it('the server certificate names loopback and the given names, is issued by the CA and serves servers only', () => {
    const cert = new X509Certificate(pair.cert)
    const authority = new X509Certificate(ca.cert)
    expect(cert.verify(authority.publicKey)).toBe(true)
    expect(cert.checkIssued(authority)).toBe(true)
    expect(authority.ca).toBe(true)
    expect(cert.ca).toBe(false)
    for (const host of ['localhost', 'doppel.example.test', 'corp.test', 'api.corp.test']) expect(cert.checkHost(host), host).toBeDefined()
    for (const ip of ['127.0.0.1', '::1', '192.0.2.7']) expect(cert.checkIP(ip), ip).toBe(ip)
    expect(cert.checkHost('other.test')).toBeUndefined()
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1'])
    expect(pair.names).toEqual(['localhost', '127.0.0.1', '::1', 'doppel.example.test', 'corp.test', '*.corp.test', '192.0.2.7'])
  })

  it('a wildcard bind address adds no name, nor does a value that is no host name; a Unicode name goes in as ASCII', () => {
    expect(issueServerCertificate(ca, ['0.0.0.0', '::', '[::]', '', '.', 'a b', '*', 'x/y', '[::2]', 'Bücher.Test']).names).toEqual([
      'localhost',
      '127.0.0.1',
      '::1',
      '::2',
      'xn--bcher-kva.test',
    ])
  })

  it('any --allowed-host value gives a certificate Node parses, with loopback in it', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.domain(), fc.ipV4(), fc.ipV6(), fc.domain().map((d) => '.' + d)), { maxLength: 4 }), (names) => {
        const cert = new X509Certificate(issueServerCertificate(ca, names).cert)
        expect(cert.checkHost('localhost')).toBeDefined()
        expect(cert.checkIssued(new X509Certificate(ca.cert))).toBe(true)
      }),
      { numRuns: 40 },
    )
  })
})

describe('createDoppelServer({ tls })', () => {
  it('serves HTTPS at an https:// URL to a client that trusts the CA, and nothing to one that does not', async () => {
    const { server } = await start()
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    const answer = await get(`https://localhost:${server.port}/_doppel/health`, { ca: ca.cert })
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toEqual({ status: 'ok' })
    await expect(get(`${server.url}/_doppel/health`)).rejects.toThrow(/self-signed|unable to (get|verify)/i)
  })

  it('links built from the request (the registry download) are https://', async () => {
    const { doppel, server } = await start()
    await publish(doppel, 'acme', 'vpc', 'aws', '1.0.0')
    const answer = await get(`${server.url}/api/registry/v1/modules/acme/vpc/aws/1.0.0/download`, { ca: ca.cert, headers: { Authorization: 'Bearer root' } })
    expect(answer.status).toBe(204)
    const location = answer.headers['x-terraform-get'] as string
    expect(location.startsWith(`${server.url}/_archivist/`)).toBe(true)
    expect((await get(location, { ca: ca.cert })).status).toBe(200)
  })

  it('takes LIST over on a TLS connection, keep-alive included', async () => {
    const { server } = await start()
    const text = await tlsExchange(
      server.port,
      'LIST /v1/auth/cloud/roles HTTP/1.1\r\nHost: localhost\r\nX-Service-Token: root\r\n\r\n' +
        'GET /_doppel/health HTTP/1.1\r\nHost: localhost\r\n\r\n' +
        'LIST /v1/auth/cloud/config/certificates HTTP/1.1\r\nHost: localhost\r\nX-Service-Token: root\r\n\r\n',
      3,
    )
    const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1])
    expect(statuses).toEqual(['404', '200', '404'])
    expect(text).toContain('{"status":"ok"}')
  })

  it('the request guard still runs over TLS', async () => {
    const { server } = await start()
    const answer = await get(`${server.url}/_doppel/health`, { ca: ca.cert, headers: { Host: 'evil.test' } })
    expect(answer.status).toBe(403)
    expect(answer.body).toContain('is not allowed')
  })

  it('a connection that never finishes its handshake is closed after the headers time-out', async () => {
    const { server } = await start({ headersTimeoutMs: 300 })
    const socket = connectTcp(server.port, '127.0.0.1')
    const started = performance.now()
    await once(socket, 'close')
    expect(performance.now() - started).toBeLessThan(5000)
  }, 10_000)

  it("plain HTTP on the TLS port gets Go's (so Vault's) 400 and the connection closed", async () => {
    const { server } = await start()
    const socket = connectTcp(server.port, '127.0.0.1')
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk))
    socket.write('GET /_doppel/health HTTP/1.1\r\nHost: localhost\r\n\r\n')
    await once(socket, 'close')
    expect(answer).toBe('HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n')
  })

  it('close() ends open keep-alive TLS connections at once', async () => {
    const { server } = await start()
    const socket = connect({ port: server.port, host: '127.0.0.1', servername: 'localhost', ca: ca.cert })
    await once(socket, 'secureConnect')
    socket.write('GET /_doppel/health HTTP/1.1\r\nHost: localhost\r\n\r\n')
    await once(socket, 'data')
    const started = performance.now()
    await server.close()
    running = undefined
    expect(performance.now() - started).toBeLessThan(1000)
    if (!socket.destroyed) await once(socket, 'close')
  })
})
