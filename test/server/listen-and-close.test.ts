import { once } from 'node:events'
import type { Server } from 'node:http'
import { createServer, type AddressInfo, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createDoppel, createDoppelServer, listen } from '../../src/index.ts'
import { forwardingProxy } from '../../src/faces/record/index.ts'
import { aws4LoginData, loginWorld } from '../cloud-auth/login-setup.ts'

// createDoppelServer binds loopback unless told otherwise, and its close() ends the outgoing calls that
// requests wait on: their clients are answered at once, never held by an upstream that does not answer.
const open: { close(): void }[] = []
afterEach(() => {
  for (const item of open.splice(0)) item.close()
})

function track(server: Server): Server {
  open.push({
    close: () => {
      server.close()
      server.closeAllConnections()
    },
  })
  return server
}

/** A TCP server that accepts and never answers; resolves once it has a connection. */
async function silentUpstream(): Promise<{ url: string; connected: Promise<unknown> }> {
  const sockets: Socket[] = []
  const server = createServer((socket) => void sockets.push(socket.on('error', () => undefined)))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  open.push({
    close: () => {
      for (const socket of sockets) socket.destroy()
      server.close()
    },
  })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connected: once(server, 'connection') }
}

/** Closes the server with Node's close() alone (in-flight requests still get their answers): the answer and how long it took. */
async function closeWhileWaiting(server: Server, pending: Promise<Response>): Promise<{ answer: Response; ms: number }> {
  const started = performance.now()
  server.close()
  const answer = await pending
  return { answer, ms: performance.now() - started }
}

describe('the address a server binds', () => {
  it.each([
    ['listen(0)', (server: Server) => server.listen(0)],
    ['listen()', (server: Server) => server.listen()],
    ['listen({ port: 0 })', (server: Server) => server.listen({ port: 0 })],
    ['listen("0", callback)', (server: Server) => server.listen('0', () => undefined)],
  ])('%s binds 127.0.0.1', async (_, start) => {
    const server = track(createDoppelServer(createDoppel()))
    start(server)
    await once(server, 'listening')
    expect((server.address() as AddressInfo).address).toBe('127.0.0.1')
  })

  it('a host given is the host bound', async () => {
    const server = track(createDoppelServer(createDoppel()))
    server.listen({ port: 0, host: '0.0.0.0' })
    await once(server, 'listening')
    expect((server.address() as AddressInfo).address).toBe('0.0.0.0')
  })

  it('the listen helper binds 127.0.0.1 without a host', async () => {
    const running = await listen(track(createDoppelServer(createDoppel())), 0)
    expect(running.host).toBe('127.0.0.1')
    expect(running.url).toBe(`http://127.0.0.1:${running.port}`)
  })
})

describe('close() ends the outgoing calls requests wait on', () => {
  it('a provider call to a silent endpoint with 1000 retries: answered as a failed call within a second', async () => {
    const upstream = await silentUpstream()
    const doppel = createDoppel()
    const server = track(createDoppelServer(doppel))
    const running = await listen(server, 0)
    const headers = { 'X-Service-Token': 'root', 'Content-Type': 'application/json' }
    const config = await fetch(`${running.url}/v1/auth/cloud/config/client`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ access_key: 'AKIAEXAMPLEEXAMPLE12', secret_key: 'secret', iam_endpoint: upstream.url, max_retries: 1000 }),
    })
    expect(config.status).toBe(204)
    const rotated = fetch(`${running.url}/v1/auth/cloud/config/rotate-root`, { method: 'POST', headers })
    await upstream.connected
    const { answer, ms } = await closeWhileWaiting(server, rotated)
    expect(ms).toBeLessThan(1000)
    expect(answer.status).toBe(400)
    expect(await answer.json()).toEqual({
      errors: [`error calling GetUser: RequestError: send request failed\ncaused by: Post "${upstream.url}/": context canceled`],
    })
    // Nothing changed: the stored keys are the old ones.
    const stored = await doppel.fetch('http://doppel.test/v1/auth/cloud/config/client', { headers })
    expect((await stored.json()).data.access_key).toBe('AKIAEXAMPLEEXAMPLE12')
  })

  it("an iam login's STS replay to a silent sts_endpoint with 1000 retries: answered as a failed call within a second", async () => {
    const upstream = await silentUpstream()
    const world = loginWorld()
    const alice = world.cloud.createPrincipal({ type: 'user', name: 'alice' })
    expect((await world.api('POST', 'role/web', { auth_type: 'iam', resolve_aws_unique_ids: false, bound_iam_principal_arn: alice.arn })).status).toBe(204)
    expect((await world.api('POST', 'config/client', { sts_endpoint: upstream.url, max_retries: 1000 })).status).toBe(204)
    const server = track(createDoppelServer(world.doppel))
    const running = await listen(server, 0)
    const login = fetch(`${running.url}/v1/auth/cloud/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ role: 'web', ...aws4LoginData(world, alice) }),
    })
    await upstream.connected
    const { answer, ms } = await closeWhileWaiting(server, login)
    expect(ms).toBeLessThan(1000)
    expect(answer.status).toBe(400)
    expect(await answer.json()).toEqual({ errors: [`error making upstream request: error making request: POST ${upstream.url}// giving up after 1 attempt(s)`] })
  })

  it("the recorder's call to a silent upstream: answered 502 within a second", async () => {
    const upstream = await silentUpstream()
    const server = track(createDoppelServer(forwardingProxy({ upstream: upstream.url, onExchange: () => undefined, onStop: () => undefined })))
    const running = await listen(server, 0)
    const forwarded = fetch(`${running.url}/v1/sys/health`)
    await upstream.connected
    const { answer, ms } = await closeWhileWaiting(server, forwarded)
    expect(ms).toBeLessThan(1000)
    expect(answer.status).toBe(502)
    expect(await answer.json()).toEqual({ errors: [`doppel: upstream ${upstream.url} did not answer: the server is stopping`] })
  })
})
