import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDoppelServer, listen, type RunningServer } from '../../src/faces/server/index.ts'
import { errorBodyProblem } from './answer.ts'
import { allEndpoints, type Endpoint, type Probe } from './endpoints.ts'
import { robustWorld, type RobustWorld } from './robust-world.ts'

// Every endpoint through a real server with a forged Host (DNS rebinding) and as a browser cross-site
// write: refused with 403 in the service's envelope before the service runs, and nothing changes.
let world: RobustWorld
let running: RunningServer
let before: string
const endpoints = allEndpoints(() => world)
const snapshot = () => JSON.stringify(world.doppel.store.snapshot())

beforeAll(async () => {
  world = await robustWorld()
  running = await listen(createDoppelServer(world.doppel), 0, '127.0.0.1')
  before = snapshot()
})
afterAll(() => running.close())

/** A request of the endpoint: a write with a well-formed body, or its first request that takes a value. */
function requestOf(endpoint: Endpoint): Probe | undefined {
  return endpoint.send?.('{}') ?? Object.values(endpoint.takes).map((take) => take('x')).find((probe) => probe !== undefined)
}

function send(probe: Probe, headers: Record<string, string>): Promise<{ status: number; contentType: string; text: string }> {
  const url = new URL(probe.url)
  const body = typeof probe.body === 'string' ? probe.body : ''
  const framing = { 'Content-Length': String(Buffer.byteLength(body)) }
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: running.port, method: probe.method, path: url.pathname + url.search, headers: { ...probe.headers, ...framing, ...headers }, agent: false },
      (res) => {
        let text = ''
        res.on('data', (chunk) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode!, contentType: String(res.headers['content-type'] ?? ''), text }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

const envelopeChecked = (endpoint: Endpoint) => ['auth', 'control', 'registry', 'registry-v1'].includes(endpoint.family)

describe('a forged Host is refused on every endpoint', () => {
  it.each(endpoints.map((endpoint) => [endpoint.label, endpoint] as const))('%s', async (_label, endpoint) => {
    const probe = requestOf(endpoint)!
    const answer = await send(probe, { Host: 'rebound.attacker.example' })
    expect(answer.status).toBe(403)
    expect(answer.text).toContain('--allowed-host')
    if (envelopeChecked(endpoint)) expect(errorBodyProblem(endpoint.family, answer)).toBeUndefined()
    expect(snapshot()).toBe(before)
  })
})

describe('a cross-site browser write is refused on every endpoint that writes', () => {
  const writers = endpoints.filter((endpoint) => endpoint.send !== undefined)
  it.each(writers.map((endpoint) => [endpoint.label, endpoint] as const))('%s', async (_label, endpoint) => {
    const probe = endpoint.send!('{}')
    expect(['GET', 'HEAD', 'OPTIONS']).not.toContain(probe.method)
    const host = new URL(probe.url).hostname.endsWith('amazonaws.com') ? new URL(probe.url).host : `127.0.0.1:${running.port}`
    for (const headers of [{ Origin: 'https://attacker.example' }, { 'Sec-Fetch-Site': 'cross-site' }] as Record<string, string>[]) {
      const answer = await send(probe, { Host: host, ...headers })
      expect(answer.status, JSON.stringify(headers)).toBe(403)
      expect(answer.text).toContain('Cross-site')
      if (envelopeChecked(endpoint)) expect(errorBodyProblem(endpoint.family, answer)).toBeUndefined()
    }
    expect(snapshot()).toBe(before)
  })
})
