import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { createHandlers } from '../src/faces/msw/index.ts'
import { prepare, ROOT, JSON_API, type Prepared } from './fixtures.ts'
import { figure, freshConnectionPool, interleaved, type Figure } from './lib.ts'

const BASE = 'http://bench.doppel.test'
const FLOOR = 'http://floor.doppel.test'
const STATIC = { request_id: 'static', data: { ok: true } }

async function expectOk(res: Response): Promise<void> {
  if (res.status >= 300) throw new Error(`bench request failed: ${res.status} ${await res.text()}`)
  await res.arrayBuffer()
}

/** A request of an operation: its path under the origin, and how it is sent. */
export type Call = [path: string, init: RequestInit]

/** The operations' short names, as `npm run bench:compare` takes them. */
export const OPERATION_NAMES = ['role', 'ec2', 'iam', 'deprecate'] as const

/** An in-process operation the bench times: its requests, sent alike to doppel and to its floor. */
export interface Operation {
  name: (typeof OPERATION_NAMES)[number]
  figure: string
  target: string
  calls: Call[]
}

/** The operations timed in process, with the request bodies `prepare` made for an emulator. */
export function operations(p: Omit<Prepared, 'doppel'>): Operation[] {
  const roleBody = JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-0bbbb000000000001', token_policies: 'a,b' })
  return [
    {
      name: 'role',
      figure: 'in-process (MSW): role write + read / the same 2 requests to a no-op handler',
      target: '<= 1.15',
      calls: [
        ['/v1/auth/cloud/role/crud-bench', { method: 'POST', headers: ROOT, body: roleBody }],
        ['/v1/auth/cloud/role/crud-bench', { headers: ROOT }],
      ],
    },
    {
      name: 'ec2',
      figure: 'in-process (MSW): ec2 login (pkcs7 rsa2048) / the same request to a no-op handler',
      target: '<= 1.3',
      calls: [['/v1/auth/cloud/login', { method: 'POST', body: p.ec2Login }]],
    },
    { name: 'iam', figure: 'in-process (MSW): iam login / the same request to a no-op handler', target: '<= 1.3', calls: [['/v1/auth/cloud/login', { method: 'POST', body: p.iamLogin }]] },
    {
      name: 'deprecate',
      figure: 'in-process (MSW): registry deprecate + read / the same 2 requests to a no-op handler',
      target: '<= 1.3',
      calls: [
        [p.patchPath, { method: 'PATCH', headers: JSON_API, body: p.deprecate }],
        [p.versionRead, { headers: { Authorization: 'Bearer root' } }],
      ],
    },
  ]
}

/** Sends an operation's requests to `origin` one after another, each answer read whole. */
export const sequence = (origin: string, calls: Call[]) => async () => {
  for (const [path, init] of calls) await fetch(`${origin}${path}`, init).then(expectOk)
}

/** The no-op MSW handler the operations are compared with: a static JSON body, whatever the request. */
export const noOpHandler = (origin: string) => http.all(`${origin}*`, () => HttpResponse.json(STATIC))

/** Operations through MSW handlers, against a no-op MSW handler returning a static JSON body. */
export async function benchInProcess(): Promise<Figure[]> {
  const p = await prepare()
  // The floor's handler comes first, so it pays for no other handler's matching.
  const server = setupServer(noOpHandler(FLOOR), ...createHandlers(p.doppel, { baseUrl: BASE }))
  server.listen({ onUnhandledFrame: 'error' })
  try {
    // Each operation's floor sends the same requests (method, headers, body) to the no-op handler.
    const figures: Figure[] = []
    for (const { figure: name, target, calls } of operations(p)) {
      const r = await interleaved(sequence(BASE, calls), sequence(FLOOR, calls), { warmup: 200, iterations: 1250, between: freshConnectionPool })
      figures.push(figure(name, r.ratio, 'x', target, `${r.subject.toFixed(0)} µs vs ${r.floor.toFixed(0)} µs`))
    }
    return figures
  } finally {
    server.close()
  }
}
