import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { createHandlers } from '../src/msw/index.ts'
import { prepare, ROOT, JSON_API } from './fixtures.ts'
import { figure, ratioAgainstFloor, timeAsync, type Figure } from './lib.ts'

const BASE = 'http://bench.doppel.test'
const FLOOR = 'http://floor.doppel.test/static'
const STATIC = { request_id: 'static', data: { ok: true } }

async function expectOk(res: Response): Promise<void> {
  if (res.status >= 300) throw new Error(`bench request failed: ${res.status} ${await res.text()}`)
  await res.arrayBuffer()
}

/** Operations through MSW handlers, against a no-op MSW handler returning a static JSON body. */
export async function benchInProcess(): Promise<Figure[]> {
  const p = await prepare()
  const server = setupServer(...createHandlers(p.doppel, { baseUrl: BASE }), http.all(`${FLOOR}*`, () => HttpResponse.json(STATIC)))
  server.listen({ onUnhandledFrame: 'error' })
  try {
    const floorOnce = () => fetch(FLOOR).then(expectOk)
    const floorTwice = async () => {
      await floorOnce()
      await floorOnce()
    }
    const opts = { warmup: 100, iterations: 600, batch: 20 }
    const measure = (fn: () => Promise<unknown>) => () => timeAsync(fn, opts)
    const roleWriteRead = async () => {
      await fetch(`${BASE}/v1/auth/cloud/role/crud-bench`, {
        method: 'POST',
        headers: ROOT,
        body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-0bbbb000000000001', token_policies: 'a,b' }),
      }).then(expectOk)
      await fetch(`${BASE}/v1/auth/cloud/role/crud-bench`, { headers: ROOT }).then(expectOk)
    }
    const ec2Login = () => fetch(`${BASE}/v1/auth/cloud/login`, { method: 'POST', body: p.ec2Login }).then(expectOk)
    const iamLogin = () => fetch(`${BASE}/v1/auth/cloud/login`, { method: 'POST', body: p.iamLogin }).then(expectOk)
    const deprecateRead = async () => {
      await fetch(`${BASE}${p.patchPath}`, { method: 'PATCH', headers: JSON_API, body: p.deprecate }).then(expectOk)
      await fetch(`${BASE}${p.versionRead}`, { headers: { Authorization: 'Bearer root' } }).then(expectOk)
    }
    const rows: [string, () => Promise<unknown>, () => Promise<unknown>, string][] = [
      ['in-process (MSW): role write + read / 2 no-op fetches', roleWriteRead, floorTwice, '<= 1.15'],
      ['in-process (MSW): ec2 login (pkcs7 rsa2048) / no-op fetch', ec2Login, floorOnce, '<= 1.3'],
      ['in-process (MSW): iam login / no-op fetch', iamLogin, floorOnce, '<= 1.3'],
      ['in-process (MSW): registry deprecate + read / 2 no-op fetches', deprecateRead, floorTwice, '<= 1.3'],
    ]
    const figures: Figure[] = []
    for (const [name, subject, floor, target] of rows) {
      const r = await ratioAgainstFloor(measure(subject), measure(floor))
      figures.push(figure(name, r.ratio, 'x', target, `${r.subject.toFixed(0)} µs vs ${r.floor.toFixed(0)} µs`))
    }
    return figures
  } finally {
    server.close()
  }
}
