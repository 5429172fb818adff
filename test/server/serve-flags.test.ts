import { request as httpRequest } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { startServe, stopServe, type ServeProcess } from './serve-process.ts'

// The guard's flags through a real `doppel serve` process. Requests go to 127.0.0.1 only.
let serve: ServeProcess | undefined
afterEach(() => stopServe(serve))

function get(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      let text = ''
      res.on('data', (chunk) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, text }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('doppel serve guard flags', () => {
  it('--allowed-host admits a name and, with a leading dot, a domain; others get 403 naming the flag', async () => {
    serve = await startServe(['--allowed-host', 'doppel.test', '--allowed-host', '.corp.test'])
    for (const host of ['doppel.test:8200', 'corp.test', 'ci.corp.test', 'localhost']) {
      expect((await get(serve.port, '/_doppel/health', { Host: host })).status, host).toBe(200)
    }
    const refused = await get(serve.port, '/_doppel/health', { Host: 'other.test' })
    expect(refused.status).toBe(403)
    expect(JSON.parse(refused.text).errors[0]).toContain('--allowed-host other.test')
  })

  it('beyond loopback: one warning line for the default root token, and the control API needs a token', async () => {
    serve = await startServe(['--host', '0.0.0.0', '--control-token', 'ctl'])
    const warnings = serve.stderr().split('\n').filter((line) => line.includes('warning'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('default root token')
    expect((await get(serve.port, '/_doppel/state', {})).status).toBe(401)
    expect((await get(serve.port, '/_doppel/state', { 'X-Service-Token': 'ctl' })).status).toBe(200)
    expect((await get(serve.port, '/_doppel/state', { Authorization: 'Bearer root' })).status).toBe(200)
  })

  it('beyond loopback with a root token of its own: no warning', async () => {
    serve = await startServe(['--host', '0.0.0.0', '--root-token', 'a-long-random-token'])
    expect(serve.stderr()).not.toContain('warning')
    expect((await get(serve.port, '/_doppel/state', { 'X-Service-Token': 'a-long-random-token' })).status).toBe(200)
    expect((await get(serve.port, '/_doppel/state', { 'X-Service-Token': 'root' })).status).toBe(401)
  })

  it('on loopback: no warning', async () => {
    serve = await startServe([])
    expect(serve.stderr()).toBe('')
  })

  it('beyond loopback: the metadata service needs the control token on the cloud listener, unless --expose-imds', async () => {
    const cloudPort = (serve: ServeProcess) => Number(/doppel fake cloud on http:\/\/[^\s]+:(\d+)/.exec(serve.stderr())![1])
    serve = await startServe(['--host', '0.0.0.0', '--root-token', 'a-long-random-token', '--cloud-port', '0'])
    expect((await get(cloudPort(serve), '/latest/meta-data/', {})).status).toBe(401)
    expect((await get(serve.port, '/latest/meta-data/', { Host: '169.254.169.254' })).status).toBe(401)
    await stopServe(serve)
    serve = await startServe(['--host', '0.0.0.0', '--root-token', 'a-long-random-token', '--cloud-port', '0', '--expose-imds'])
    const exposed = await get(cloudPort(serve), '/latest/meta-data/', {})
    expect(exposed.status).not.toBe(401)
    expect((await get(serve.port, '/_doppel/state', {})).status).toBe(401)
  })
})
