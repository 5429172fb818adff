// Unauthenticated input is bounded in time and memory: a login body of a million and a half keys is refused
// before it is parsed while other requests go on being answered (the client in a process of its own, so the
// server's event loop is what is measured), and refused logins that quote huge signed headers do not pile
// up in the journal's explanations (`doppel serve` in a process of its own with a small heap).
import aws4 from 'aws4'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { request } from 'node:http'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { afterEach, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { createDoppelServer, listen } from '../../src/faces/server/index.ts'
import { startUntilReady } from '../support/ready-line.ts'

const BIN = new URL('../../bin/doppel.js', import.meta.url).pathname
const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
})

/** `doppel serve --port 0` in its own process, with extra Node options; resolves with its URL. */
function serve(nodeOptions: string[] = []): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  return startUntilReady(process.execPath, [...nodeOptions, BIN, 'serve', '--port', '0', '--quiet'], { onSpawn: (child) => children.push(child) })
}

/** A POST through node:http (no fetch: a 25 MiB body is written as it is, in one call). */
function post(url: string, body: Buffer, type: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'Content-Type': type, 'Content-Length': body.length } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString() }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const KEYS = 1_500_000

/** How many times the client sends the body: the server's time is judged by its best try, as the machine it shares may stall any one of them. */
const TRIES = 3

/**
 * A client in a process of its own: builds a body of 1.5 million keys (JSON or form-encoded) and POSTs
 * it to the login TRIES times, asking GET /_doppel/health one request after another meanwhile. Before each
 * try it prints `sending`, after it the answer, the body's size and the slowest health answer as JSON.
 */
const CLIENT = `
const http = require('node:http')
const [url, form] = process.argv.slice(1)
const keys = Array.from({ length: ${KEYS} }, (_, i) => 'key-' + String(i).padStart(11, '0'))
const body = Buffer.from(form === 'json' ? '{"role":"r",' + keys.map((k) => '"' + k + '":1').join(',') + '}' : 'role=r&' + keys.map((k) => k + '=1').join('&'))
keys.length = 0
const type = form === 'json' ? 'application/json' : 'application/x-www-form-urlencoded'
async function attempt() {
  let done = false
  // The server measures from here: building the body is this process's work, not the server's.
  process.stdout.write('sending\\n')
  const started = performance.now()
  const answer = new Promise((resolve, reject) => {
    const req = http.request(url + '/v1/auth/cloud/login', { method: 'POST', headers: { 'Content-Type': type, 'Content-Length': body.length } }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString(), ms: performance.now() - started }))
    })
    req.on('error', reject)
    req.end(body)
  }).finally(() => (done = true))
  let slowest = 0
  let pings = 0
  while (!done) {
    const t = performance.now()
    await (await fetch(url + '/_doppel/health')).arrayBuffer()
    slowest = Math.max(slowest, performance.now() - t)
    pings++
    await new Promise((r) => setTimeout(r, 5))
  }
  process.stdout.write(JSON.stringify({ ...(await answer), size: body.length, pings, slowest }) + '\\n')
}
;(async () => {
  for (let i = 0; i < ${TRIES}; i++) await attempt()
})()
`

interface Try {
  status: number
  text: string
  ms: number
  size: number
  pings: number
  slowest: number
  /** The longest the server's event loop was held during the try, in ms. */
  held: number
}

describe('a login body of 1.5 million keys', () => {
  for (const form of ['json', 'form']) {
    it(`${form}: refused with the service's 400 before it is parsed, while the server's event loop is never held 100 ms`, async () => {
      const running = await listen(createDoppelServer(createDoppel()), 0, '127.0.0.1')
      try {
        // Warm: the first requests of a fresh server load and compile the code they run (the auth method's
        // modules are imported on first use; a body over 1 MiB streams through other code than a small one).
        const type = form === 'json' ? 'application/json' : 'application/x-www-form-urlencoded'
        const padding = 'x'.repeat(2 * 2 ** 20)
        for (let i = 0; i < 5; i++) {
          await (await fetch(`${running.url}/_doppel/health`)).arrayBuffer()
          const body = form === 'json' ? JSON.stringify({ role: 'r', padding }) : `role=r&padding=${padding}`
          await (await fetch(`${running.url}/v1/auth/cloud/login`, { method: 'POST', headers: { 'Content-Type': type }, body })).arrayBuffer()
        }
        const delay = monitorEventLoopDelay({ resolution: 10 })
        const tries: Try[] = []
        const client = spawn(process.execPath, ['-e', CLIENT, running.url, form], { stdio: ['ignore', 'pipe', 'inherit'] })
        let out = ''
        client.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString()
          for (let end = out.indexOf('\n'); end !== -1; end = out.indexOf('\n')) {
            const line = out.slice(0, end)
            out = out.slice(end + 1)
            if (line === 'sending') {
              delay.reset()
              delay.enable()
            } else {
              delay.disable()
              tries.push({ ...(JSON.parse(line) as Omit<Try, 'held'>), held: delay.max / 1e6 })
            }
          }
        })
        await once(client, 'exit')
        for (const { size, ms, held, pings, slowest } of tries) {
          console.log(`${form} body of ${(size / 2 ** 20).toFixed(1)} MiB refused in ${ms.toFixed(0)} ms; the server's event loop held at most ${held.toFixed(1)} ms; ${pings} health requests meanwhile, the slowest ${slowest.toFixed(1)} ms`)
        }
        expect(tries).toHaveLength(TRIES)
        for (const { size, status, text } of tries) {
          expect(size).toBeGreaterThan(25 * 2 ** 20)
          expect(status).toBe(400)
          expect(JSON.parse(text)).toEqual({ errors: [form === 'json' ? 'error parsing JSON' : 'error parsing form data'] })
        }
        expect(Math.min(...tries.map((t) => t.held))).toBeLessThan(100)
      } finally {
        await running.close()
      }
    }, 120_000)
  }
})

describe('refused iam logins quoting 8 MiB of signed headers', () => {
  it('keep a bounded explanation each: 40 of them fit in a 192 MiB heap, and the journal shows each one cut with a mark', async () => {
    const { url, child, stderr } = await serve(['--max-old-space-size=192'])
    const principal = await (await fetch(`${url}/_doppel/cloud/principals`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ type: 'user', name: 'big' }) })).json()
    // Signed with the wrong secret: the fake cloud's STS refuses the signature and explains it with the
    // canonical request it computed, which holds the 8 MiB header.
    const signed = {
      host: 'sts.amazonaws.com',
      path: '/',
      method: 'POST',
      service: 'sts',
      region: 'us-east-1',
      body: 'Action=GetCallerIdentity&Version=2011-06-15',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8', 'X-Big': 'b'.repeat(8 * 1024 * 1024) } as Record<string, string>,
    }
    aws4.sign(signed, { accessKeyId: principal.access_key_id as string, secretAccessKey: 'not-the-secret' })
    const headers = Object.fromEntries(Object.entries(signed.headers).filter(([name]) => name.toLowerCase() !== 'host'))
    const body = Buffer.from(
      JSON.stringify({
        role: 'any',
        iam_http_request_method: 'POST',
        iam_request_url: Buffer.from('https://sts.amazonaws.com/').toString('base64'),
        iam_request_body: Buffer.from(signed.body).toString('base64'),
        iam_request_headers: Buffer.from(JSON.stringify(headers)).toString('base64'),
      }),
    )
    for (let i = 0; i < 40; i++) {
      const { status } = await post(`${url}/v1/auth/cloud/login`, body, 'application/json')
      expect(status, stderr()).toBe(400)
    }
    expect(child.exitCode, stderr()).toBe(null)
    const journal = await (await fetch(`${url}/_doppel/journal`)).json()
    const refusals = (journal.entries as { url: string; explanation?: { details?: Record<string, string> } }[]).filter((entry) => entry.url.endsWith('/login'))
    expect(refusals).toHaveLength(40)
    const explanation = refusals.at(-1)!.explanation!
    expect(JSON.stringify(explanation).length).toBeLessThan(64 * 1024)
    expect(explanation.details!['canonical request']).toMatch(/… \[cut at 4096 of \d+ bytes\]$/)
  }, 120_000)
})
