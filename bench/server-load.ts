import { execFile } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { createDoppelServer, listen } from '../src/index.ts'
import { prepare } from './fixtures.ts'
import { figure, median, type Figure } from './lib.ts'

const CLIENT = fileURLToPath(new URL('./load-client.ts', import.meta.url))
const STATIC = JSON.stringify({ request_id: 'static', data: { ok: true } }) + '\n'

interface LoadResult {
  rps: number
  non2xx: number
  errors: number
  total: number
}

async function load(config: Record<string, unknown>): Promise<LoadResult> {
  const { stdout } = await promisify(execFile)(process.execPath, [CLIENT, JSON.stringify(config)], { timeout: 60_000 })
  return JSON.parse(stdout) as LoadResult
}

/** The standalone server under load from a second process, against a bare node:http server. */
export async function benchServerLoad(rounds = 3): Promise<Figure[]> {
  const bare = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(STATIC) })
    res.end(STATIC)
  })
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve))
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`
  const p = await prepare()
  const server = await listen(createDoppelServer(p.doppel), 0, '127.0.0.1')
  const u = server.url
  const ops: [string, Record<string, unknown>][] = [
    ['role write + read', { url: u, requests: [
      { method: 'POST', path: '/v1/auth/cloud/role/load-bench', headers: { 'x-service-token': 'root' }, body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-0bbbb000000000001' }) },
      { method: 'GET', path: '/v1/auth/cloud/role/load-bench', headers: { 'x-service-token': 'root' } },
    ] }],
    ['ec2 login', { url: `${u}/v1/auth/cloud/login`, method: 'POST', body: p.ec2Login }],
    ['iam login', { url: `${u}/v1/auth/cloud/login`, method: 'POST', body: p.iamLogin }],
    ['registry deprecate + read', { url: u, requests: [
      { method: 'PATCH', path: p.patchPath, headers: { authorization: 'Bearer root', 'content-type': 'application/vnd.api+json' }, body: p.deprecate },
      { method: 'GET', path: p.versionRead, headers: { authorization: 'Bearer root' } },
    ] }],
  ]
  const figures: Figure[] = []
  try {
    for (const [name, config] of ops) {
      const ratios: number[] = []
      let detail = ''
      for (let i = 0; i < rounds; i++) {
        const floor = await load({ url: bareUrl })
        const subject = await load(config)
        if (subject.non2xx > 0 || subject.errors > 0) throw new Error(`${name}: ${subject.non2xx} non-2xx, ${subject.errors} errors under load`)
        ratios.push(subject.rps / floor.rps)
        detail = `${subject.rps.toFixed(0)} req/s vs ${floor.rps.toFixed(0)} req/s`
      }
      figures.push(figure(`server under load (autocannon, 16 connections): ${name} / bare node:http`, median(ratios), 'x', '>= 0.6', detail))
    }
  } finally {
    await server.close()
    bare.close()
  }
  return figures
}
