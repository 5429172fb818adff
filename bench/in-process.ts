import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { createHandlers } from '../src/faces/msw/index.ts'
import { prepare, ROOT, JSON_API } from './fixtures.ts'
import { figure, interleaved, type Figure } from './lib.ts'

const BASE = 'http://bench.doppel.test'
const FLOOR = 'http://floor.doppel.test'
const STATIC = { request_id: 'static', data: { ok: true } }

async function expectOk(res: Response): Promise<void> {
  if (res.status >= 300) throw new Error(`bench request failed: ${res.status} ${await res.text()}`)
  await res.arrayBuffer()
}

/** Operations through MSW handlers, against a no-op MSW handler returning a static JSON body. */
export async function benchInProcess(): Promise<Figure[]> {
  const p = await prepare()
  // The floor's handler comes first, so it pays for no other handler's matching.
  const server = setupServer(http.all(`${FLOOR}*`, () => HttpResponse.json(STATIC)), ...createHandlers(p.doppel, { baseUrl: BASE }))
  server.listen({ onUnhandledFrame: 'error' })
  try {
    // Each operation's floor sends the same requests (method, headers, body) to the no-op handler.
    type Call = [path: string, init: RequestInit]
    const sequence = (origin: string, calls: Call[]) => async () => {
      for (const [path, init] of calls) await fetch(`${origin}${path}`, init).then(expectOk)
    }
    const pair = (calls: Call[]) => [sequence(BASE, calls), sequence(FLOOR, calls)] as const
    const roleBody = JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-0bbbb000000000001', token_policies: 'a,b' })
    const [roleWriteRead, roleFloor] = pair([
      ['/v1/auth/cloud/role/crud-bench', { method: 'POST', headers: ROOT, body: roleBody }],
      ['/v1/auth/cloud/role/crud-bench', { headers: ROOT }],
    ])
    const [ec2Login, ec2Floor] = pair([['/v1/auth/cloud/login', { method: 'POST', body: p.ec2Login }]])
    const [iamLogin, iamFloor] = pair([['/v1/auth/cloud/login', { method: 'POST', body: p.iamLogin }]])
    const [deprecateRead, deprecateFloor] = pair([
      [p.patchPath, { method: 'PATCH', headers: JSON_API, body: p.deprecate }],
      [p.versionRead, { headers: { Authorization: 'Bearer root' } }],
    ])
    const rows: [string, () => Promise<unknown>, () => Promise<unknown>, string][] = [
      ['in-process (MSW): role write + read / the same 2 requests to a no-op handler', roleWriteRead, roleFloor, '<= 1.15'],
      ['in-process (MSW): ec2 login (pkcs7 rsa2048) / the same request to a no-op handler', ec2Login, ec2Floor, '<= 1.3'],
      ['in-process (MSW): iam login / the same request to a no-op handler', iamLogin, iamFloor, '<= 1.3'],
      ['in-process (MSW): registry deprecate + read / the same 2 requests to a no-op handler', deprecateRead, deprecateFloor, '<= 1.3'],
    ]
    const figures: Figure[] = []
    for (const [name, subject, floor, target] of rows) {
      const r = await interleaved(subject, floor, { warmup: 200, iterations: 2000 })
      figures.push(figure(name, r.ratio, 'x', target, `${r.subject.toFixed(0)} µs vs ${r.floor.toFixed(0)} µs`))
    }
    return figures
  } finally {
    server.close()
  }
}
