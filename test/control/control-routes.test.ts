import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { createEmulatorTarget, createHttpTarget } from '../../src/faces/scenario/index.ts'
import { createDoppelServer, listen, type RunningServer } from '../../src/faces/server/index.ts'

// One control API: one route table, one body reader and one set of messages, whichever face calls it.

const base = 'http://doppel.test'

async function call(method: string, path: string, body?: string): Promise<{ status: number; json: unknown }> {
  const d = createDoppel()
  const res = await d.fetch(`${base}${path}`, { method, ...(body !== undefined && { body }) })
  return { status: res.status, json: res.status === 204 ? undefined : await res.json() }
}

describe('the control route table', () => {
  it('answers a known path with a method it lacks 405, on every control route family', async () => {
    const calls = 'GET /_doppel/reset, POST /_doppel/health, PUT /_doppel/journal, POST /_doppel/state, GET /_doppel/fixtures, GET /_doppel/faults/fault-1, GET /_doppel/registry/tokens, PUT /_doppel/cloud/instances, POST /_doppel/tenants, POST /_doppel/openapi.json, DELETE /_doppel/ui/'
    for (const line of calls.split(', ')) {
      const [method, path] = line.split(' ')
      expect(await call(method!, path!), line).toEqual({ status: 405, json: { errors: ['unsupported operation'] } })
    }
  })

  it('answers an unknown path 404 naming it, trailing slashes trimmed', async () => {
    expect(await call('GET', '/_doppel/nothing/')).toEqual({ status: 404, json: { errors: ['unsupported path: GET /_doppel/nothing'] } })
    expect(await call('GET', '/_doppel/cloud/nothing-here/')).toEqual({ status: 404, json: { errors: ['unsupported path: GET /_doppel/cloud/nothing-here'] } })
    expect(await call('DELETE', '/_doppel/tenants/a/b')).toEqual({ status: 404, json: { errors: ['unsupported path: DELETE /_doppel/tenants/a/b'] } })
  })

  it('refuses a body that is not a JSON object with one message on every JSON route', async () => {
    const message = 'Failed to read the request: the body must be a JSON object'
    for (const path of ['/_doppel/clock', '/_doppel/faults', '/_doppel/registry/tokens', '/_doppel/registry/fixtures', '/_doppel/cloud/instances']) {
      for (const body of ['{', '[1]', '"x"']) {
        expect(await call('POST', path, body), `${path} ${body}`).toEqual({ status: 400, json: { errors: [message] } })
      }
    }
    // Registry set-up needs a body; elsewhere an empty body is no data.
    expect(await call('POST', '/_doppel/registry/tokens', '')).toEqual({ status: 400, json: { errors: [message] } })
    expect((await call('POST', '/_doppel/cloud/instances', '')).status).toBe(201)
  })

  it('refuses a body nested too deep or too large with the same words everywhere', async () => {
    const deep = `{"x":${'['.repeat(101)}${']'.repeat(101)}}`
    for (const path of ['/_doppel/clock', '/_doppel/registry/tokens', '/_doppel/cloud/instances']) {
      expect(await call('POST', path, deep), path).toEqual({ status: 400, json: { errors: ['Failed to read the request: the body is nested deeper than 100 levels'] } })
    }
    const big = JSON.stringify({ pad: 'x'.repeat(1024 * 1024) })
    expect(await call('POST', '/_doppel/cloud/instances', big)).toEqual({ status: 413, json: { errors: ['Failed to read the request: the body is over 1048576 bytes'] } })
    expect((await call('POST', '/_doppel/faults', big)).status).toBe(400)
    const huge = JSON.stringify({ pad: 'x'.repeat(8 * 1024 * 1024) })
    for (const path of ['/_doppel/faults', '/_doppel/registry/fixtures', '/_doppel/fixtures']) {
      expect(await call('POST', path, huge), path).toEqual({ status: 413, json: { errors: ['Failed to read the request: the body is over 8388608 bytes'] } })
    }
  })

  it('names the snapshot in its refusals, with the same rules', async () => {
    const d = createDoppel()
    const put = async (body: string) => {
      const res = await d.fetch(`${base}/_doppel/snapshot`, { method: 'PUT', headers: { 'X-Service-Token': 'root' }, body })
      return { status: res.status, json: await res.json() }
    }
    expect(await put(`${'['.repeat(101)}${']'.repeat(101)}`)).toEqual({ status: 400, json: { errors: ['Failed to read the snapshot: the body is nested deeper than 100 levels'] } })
    expect(await put('{')).toEqual({ status: 400, json: { errors: ['Failed to read the snapshot: the body is not complete JSON'] } })
  })
})

describe('in process and over HTTP alike', () => {
  let running: RunningServer
  let url: string
  beforeAll(async () => {
    running = await listen(createDoppelServer(createDoppel({ seed: 1 })), 0, '127.0.0.1')
    url = running.url
  })
  afterAll(() => running.close())

  it('the scenario engine gets the same results and the same refusals from both targets', async () => {
    const emulator = await createEmulatorTarget().open({ runId: 'a', isolateMount: false })
    const http = await (await createHttpTarget({ url })).open({ runId: 'b', isolateMount: false })
    const outcome = async (act: () => Promise<unknown>) => {
      try {
        return { ok: await act() }
      } catch (error) {
        return { refused: `${(error as Error).name}: ${(error as Error).message}` }
      }
    }
    for (const session of [emulator, http]) await session.control.reset()
    const steps: ((c: typeof emulator.control) => Promise<unknown>)[] = [
      (c) => c.advanceClock('soon'),
      (c) => c.setClock('yesterday'),
      (c) => c.addFault({ path: '/x' }),
      (c) => c.removeFault('fault-none'),
      (c) => c.getInstance('i-00000000000000000'),
      (c) => c.createInstance({ colour: 'red' }),
      (c) => c.createInstance({ instance_id: 'i-0123456789abcdef0' }),
      (c) => c.setInstanceState('i-0123456789abcdef0', 'sleeping'),
      (c) => c.identityDocument('i-0123456789abcdef0', 'dsa'),
      (c) => c.deletePrincipal('nobody'),
      (c) => c.inspect('faults'),
    ]
    for (const step of steps) {
      const [inProcess, overHttp] = [await outcome(() => step(emulator.control)), await outcome(() => step(http.control))]
      expect(inProcess).toEqual(overHttp)
    }
  })
})

describe('the guard reads the same table', () => {
  let running: RunningServer
  let port: number
  beforeAll(async () => {
    const server = createDoppelServer(createDoppel({ seed: 1 }))
    running = await listen(server, 0, '127.0.0.1')
    port = running.port
    const real = server.address() as AddressInfo
    server.address = () => ({ ...real, address: '0.0.0.0' })
  })
  afterAll(() => running.close())

  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { Host: `127.0.0.1:${port}`, ...headers }, agent: false }, (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode!))
      })
      req.on('error', reject)
      req.end(body)
    })

  it('keeps open reads open beyond loopback (GET and HEAD) and everything else behind the token', async () => {
    expect(await send('GET', '/_doppel/health')).toBe(200)
    expect(await send('HEAD', '/_doppel/health')).toBe(405)
    expect(await send('GET', '/_doppel/ui/')).toBe(200)
    expect(await send('HEAD', '/_doppel/ui/app.js')).toBe(200)
    expect(await send('GET', '/_doppel/clock')).toBe(401)
    expect(await send('POST', '/_doppel/health')).toBe(401)
  })

  it('takes YAML for fixtures only, with a file name in the query too', async () => {
    const yaml = { 'X-Service-Token': 'root', 'Content-Type': 'application/yaml' }
    expect(await send('POST', '/_doppel/fixtures?file=seed.yaml', yaml, 'version: 1\nregistry:\n  organizations: [yaml-org]\n')).toBe(201)
    expect(await send('POST', '/_doppel/faults', yaml, 'path: /x\n')).toBe(415)
  })
})
