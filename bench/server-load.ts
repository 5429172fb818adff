// The standalone server under load, measured by the server's own CPU time per request: utime + stime
// from /proc/<pid>/stat around an autocannon run from a second process, server and load generator
// pinned to different cores (taskset), each round's counted time cut in slices taken in turn by the
// servers, medians over rounds. Every server gets the same requests. Two floors in the same run: a bare
// node:http server answering 45 bytes, and one that does doppel's own work for each request in process
// and answers that answer. Peers are the mock servers a user would pick instead (json-server; WireMock
// when java is installed).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { loads, WORKS, type Load, type Work } from './fixtures.ts'
import { cryptoFloors } from './login-floor.ts'
import { figure, median, type Figure } from './lib.ts'
import { canPin, LoadGenerator, pinned, stopChild, type LoadResult } from './processes.ts'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
/** Counted seconds of each server and work in a round: the server's CPU count moves in 10 ms ticks, ≤ 1% of this. */
const DURATION_S = 1.5
const ROUNDS = 3
/**
 * A round's counted seconds come in this many slices, taken in turn by every server doing the work: a
 * server and its floors are measured tenths of a second apart instead of seconds, so the machine's swings
 * hit both sides of a ratio alike (docs/performance.md, "Method").
 */
const SLICES = 5
/**
 * Seconds of load per request kind before the rounds, the same for every server: V8's optimising tier,
 * like the JVM's, takes seconds of a kind of request to reach its steady code.
 */
const WARM_UP_S = 3
/**
 * Seconds of the same request, uncounted, right before each counted run: between two runs of one kind a
 * server answers every other kind, which leaves its code and heap tuned to those.
 */
const LEAD_IN_S = 0.5
/** doppel in process, timed alone (the table's "in proc"): warm-up, lead-in and counted seconds per work. */
const IN_PROCESS = { warmUp: 1, leadIn: 0.25, count: 0.5 }

const CRUD = new Set<Work>(['GET role', 'POST role', 'registry GET'])

interface Target {
  name: string
  pid: number
  port: number
  /** The request for each work this server can do. */
  loads: Partial<Record<Work, Load>>
  stop(): Promise<void>
}

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100
  } catch {
    return 100
  }
})()

/** The process's CPU time so far (user + system, all threads), in microseconds. */
function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLK_TCK
}

/** Starts a process (a server: on core 0) and resolves with its first stdout line parsed as JSON. */
function startNode(script: string, args: string[] = [], core = 0): Promise<{ child: ChildProcess; info: Record<string, unknown> }> {
  const [command, argv] = pinned(core, process.execPath, [script, ...args])
  const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const end = out.indexOf('\n')
      if (end !== -1) resolve({ child, info: JSON.parse(out.slice(0, end)) as Record<string, unknown> })
    })
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before listening`)))
  })
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs
  for (;;) {
    try {
      if ((await fetch(url)).status < 500) return
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer within ${timeoutMs} ms`)
    await sleep(200)
  }
}

async function send(port: number, load: Load): Promise<{ status: number; text: string; type: string }> {
  const res = await fetch(`http://127.0.0.1:${port}${load.path}`, { method: load.method, headers: load.headers, body: load.body })
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') ?? '' }
}

/** One autocannon run of a bench request against a server. */
function runLoad(generator: LoadGenerator, port: number, load: Load, duration: number): Promise<LoadResult> {
  return generator.run({ url: `http://127.0.0.1:${port}${load.path}`, method: load.method, headers: load.headers, body: load.body, duration })
}

/**
 * One round of a work: each server's CPU µs per request. Every server gets its lead-in, then the counted
 * time in `SLICES` slices, one server after the other. A server's CPU is read before its first slice and
 * after the round: between its slices it answers nothing else, so what it spends there is what the counted
 * requests left to do (collecting their garbage, a JVM compiling their code), and is theirs.
 */
async function measureRound(client: LoadGenerator, doing: Target[], work: Work): Promise<number[]> {
  for (const target of doing) await runLoad(client, target.port, target.loads[work]!, LEAD_IN_S)
  const started: number[] = []
  const served = doing.map(() => 0)
  for (let slice = 0; slice < SLICES; slice++) {
    for (const [i, target] of doing.entries()) {
      // Read just before its first slice: the other servers' lead-ins have let its own lead-in's work end.
      if (slice === 0) started[i] = cpuMicros(target.pid)
      const result = await runLoad(client, target.port, target.loads[work]!, DURATION_S / SLICES)
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.name} ${work}: ${result.non2xx} non-2xx, ${result.errors} errors under load`)
      // The CPU counted includes the requests in flight when the run stopped: 16 of a 0.3 s slice's
      // 600 ec2 logins, which the answers received would leave out.
      served[i]! += result.sent
    }
  }
  await idle(doing.at(-1)!.pid)
  return doing.map((target, i) => (cpuMicros(target.pid) - started[i]!) / served[i]!)
}

/** Resolves once the process has spent no CPU for 30 ms (at most 0.5 s): the work left by its last requests is done. */
async function idle(pid: number): Promise<void> {
  let last = cpuMicros(pid)
  for (let waited = 0; waited < 500; waited += 30) {
    await sleep(30)
    const now = cpuMicros(pid)
    if (now === last) return
    last = now
  }
}

async function startDoppel(): Promise<Target> {
  const { child, info } = await startNode(here('./servers/doppel.ts'))
  const bodies = info as Record<string, string> & Parameters<typeof loads>[0]
  return { name: 'doppel serve', pid: child.pid!, port: Number(info.port), loads: loads(bodies), stop: () => stopChild(child) }
}

/**
 * doppel's CPU µs per request in process, per work, measured in a process of its own on the load
 * generator's core while the servers start on theirs (the generator is idle until they have).
 */
async function inProcessCpu(): Promise<Record<Work, number>> {
  const { warmUp, leadIn, count } = IN_PROCESS
  const { child, info } = await startNode(here('./servers/in-process-cpu.ts'), [warmUp, leadIn, count, ROUNDS].map(String), 1)
  await stopChild(child)
  return info as Record<Work, number>
}

/** The matched floor: node:http doing doppel's work in process for each work's request, told apart by a path prefix. */
async function startMatchedFloor(doppel: Target): Promise<Target> {
  const specs = WORKS.map((work, i) => ({ path: `/${i}${doppel.loads[work]!.path}`, work }))
  const floorLoads = Object.fromEntries(WORKS.map((work, i) => [work, { ...doppel.loads[work]!, path: specs[i]!.path }]))
  return startPlain("node:http doing doppel's work in process", here('./servers/matched-floor.ts'), floorLoads, [JSON.stringify(specs)])
}

async function startPlain(name: string, script: string, loads: Partial<Record<Work, Load>>, args: string[] = []): Promise<Target> {
  const { child, info } = await startNode(script, args)
  return { name, pid: child.pid!, port: Number(info.port), loads, stop: () => stopChild(child) }
}

/** json-server over a db holding the role and the module version doppel answers with. */
async function startJsonServer(doppel: Target, answers: Partial<Record<Work, string>>): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'doppel-bench-'))
  const role = JSON.parse(answers['GET role']!) as { data: Record<string, unknown> }
  const version = JSON.parse(answers['registry GET']!) as Record<string, unknown>
  const db = join(dir, 'db.json')
  writeFileSync(db, JSON.stringify({ roles: [{ id: 'ec2-bench', ...role.data }, { id: 'load-bench', ...role.data }], versions: [{ ...version, id: '1' }] }))
  const port = await freePort()
  const bin = here('../node_modules/json-server/lib/cli/bin.js')
  const [command, argv] = pinned(0, process.execPath, [bin, db, '--port', String(port), '--host', '127.0.0.1', '--quiet'])
  const child = spawn(command, argv, { stdio: 'ignore' })
  await waitFor(`http://127.0.0.1:${port}/roles/ec2-bench`, 15_000)
  const json = { 'content-type': 'application/json' }
  const loads: Partial<Record<Work, Load>> = {
    'GET role': { method: 'GET', path: '/roles/ec2-bench' },
    // json-server's update of a record (a role write is an upsert of one record).
    'POST role': { method: 'PUT', path: '/roles/load-bench', headers: json, body: doppel.loads['POST role']!.body! },
    'registry GET': { method: 'GET', path: '/versions/1' },
  }
  return { name: 'json-server', pid: child.pid!, port, loads, stop: async () => {
    await stopChild(child)
    rmSync(dir, { recursive: true, force: true })
  } }
}

/**
 * WireMock's standalone jar from its npm package, stubbed with doppel's own answers to the CRUD works;
 * needs java. Not the logins: a peer's target is on CRUD, and a canned answer to a login checks no
 * signature, so the figure compared a signature check with nothing.
 */
async function startWireMock(doppel: Target, answers: Partial<Record<Work, string>>): Promise<Target | string> {
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' })
  } catch {
    return 'java is not installed (Debian: apt-get install default-jre-headless)'
  }
  const dir = here('../node_modules/wiremock/build')
  const jar = existsSync(dir) ? readdirSync(dir).find((f) => /^wiremock-standalone-.*\.jar$/.test(f)) : undefined
  if (!jar) return 'the wiremock npm package is not installed'
  const port = await freePort()
  const [command, argv] = pinned(0, 'java', ['-jar', join(dir, jar), '--port', String(port), '--bind-address', '127.0.0.1', '--disable-banner'])
  const child = spawn(command, argv, { stdio: 'ignore' })
  await waitFor(`http://127.0.0.1:${port}/__admin/health`, 60_000)
  const crud = WORKS.filter((work) => CRUD.has(work))
  for (const work of crud) {
    const load = doppel.loads[work]!
    const status = work === 'POST role' ? 204 : 200
    const mapping = {
      request: { method: load.method, urlPath: load.path },
      response: { status, ...(status === 200 && { body: answers[work], headers: { 'Content-Type': 'application/json' } }) },
    }
    const res = await fetch(`http://127.0.0.1:${port}/__admin/mappings`, { method: 'POST', body: JSON.stringify(mapping) })
    if (res.status !== 201) throw new Error(`WireMock refused a stub: ${res.status}`)
  }
  const loads = Object.fromEntries(crud.map((work) => [work, doppel.loads[work]!]))
  return { name: 'WireMock', pid: child.pid!, port, loads, stop: () => stopChild(child) }
}

export async function benchServerLoad(): Promise<Figure[]> {
  const notes: string[] = []
  if (!canPin) notes.push('taskset is not available: server and load generator are not pinned')
  const measuredInProcess = inProcessCpu()
  measuredInProcess.catch(() => {}) // awaited below; a failure surfaces there, not as an unhandled rejection
  const doppel = await startDoppel()
  const answers: Partial<Record<Work, string>> = {}
  for (const work of WORKS) {
    const answer = await send(doppel.port, doppel.loads[work]!)
    if (answer.status >= 300) throw new Error(`bench set-up: ${work} answered ${answer.status} ${answer.text}`)
    answers[work] = answer.text
  }
  const targets: Target[] = [doppel]
  const stops: (() => Promise<void>)[] = [doppel.stop]
  try {
    const floor = await startPlain('bare node:http', here('./servers/floor.ts'), doppel.loads)
    stops.push(floor.stop)
    const matchedFloor = await startMatchedFloor(doppel)
    stops.push(matchedFloor.stop)
    const ownAdapter = await startPlain('doppel adapter, constant answer', here('./servers/adapters.ts'), { 'GET role': doppel.loads['GET role']! }, ['doppel'])
    const honoAdapter = await startPlain('@hono/node-server, constant answer', here('./servers/adapters.ts'), { 'GET role': doppel.loads['GET role']! }, ['hono'])
    stops.push(ownAdapter.stop, honoAdapter.stop)
    const jsonServer = await startJsonServer(doppel, answers)
    stops.push(jsonServer.stop)
    const wiremock = await startWireMock(doppel, answers)
    if (typeof wiremock === 'string') notes.push(`WireMock skipped: ${wiremock}`)
    else stops.push(wiremock.stop)
    const peers = [jsonServer, ...(typeof wiremock === 'string' ? [] : [wiremock])]
    const inProcess = await measuredInProcess
    targets.push(floor, matchedFloor, ownAdapter, honoAdapter, ...peers)
    // Started last: it shares its core with the in-process measurement.
    const client = new LoadGenerator(1)
    stops.push(() => client.stop())

    for (const target of targets) {
      for (const work of WORKS) if (target.loads[work]) await runLoad(client, target.port, target.loads[work], WARM_UP_S)
    }
    const samples = new Map<string, number[]>()
    for (let round = 0; round < ROUNDS; round++) {
      for (const work of WORKS) {
        const doing = targets.filter((target) => target.loads[work])
        const perRequest = await measureRound(client, doing, work)
        for (const [i, target] of doing.entries()) {
          const key = `${target.name}|${work}`
          samples.set(key, [...(samples.get(key) ?? []), perRequest[i]!])
        }
      }
    }
    const at = (target: Target, work: Work) => samples.get(`${target.name}|${work}`)
    /** The median over rounds of the per-round ratio: drift hits both sides of a round alike. */
    const ratio = (a: number[], b: number[]) => median(a.map((value, i) => value / b[i]!))
    const us = (values: number[]) => `${median(values).toFixed(1)} µs`

    const figures: Figure[] = []
    const floors = await cryptoFloors()
    /** A figure against the bare floor, a peer or a login's crypto floor, with where node:http doing doppel's work stands against the same side. */
    const withMatched = (name: string, value: number, target: string, detail: string, matchedValue: number) =>
      figure(name, value, 'x', target, `${detail}; node:http doing doppel's work: ${matchedValue.toFixed(2)}×`, matchedValue)
    process.stdout.write(`  server CPU µs per request (medians of ${ROUNDS} rounds, each of ${SLICES} slices in turn) and doppel's against each floor:
`)
    process.stdout.write(`  ${'work'.padEnd(12)}  ${'doppel'.padStart(7)}  ${'in proc'.padStart(7)}  ${'bare'.padStart(7)}  ${'matched'.padStart(7)}  ${'÷ bare'.padStart(7)}  ${'÷ match'.padStart(7)}\n`)
    for (const work of WORKS) {
      const subject = at(doppel, work)!
      const base = at(floor, work)!
      const matched = at(matchedFloor, work)!
      const cells = [median(subject), inProcess[work], median(base), median(matched)].map((v) => v.toFixed(1).padStart(7))
      process.stdout.write(`  ${work.padEnd(12)}  ${cells.join('  ')}  ${ratio(subject, base).toFixed(2).padStart(6)}×  ${ratio(subject, matched).toFixed(2).padStart(6)}×\n`)
      figures.push(
        withMatched(`server CPU per request: doppel ${work} / bare node:http`, ratio(subject, base), CRUD.has(work) ? '<= 2.0' : '<= 6.0', `${us(subject)} vs ${us(base)}`, ratio(matched, base)),
        figure(
          `server CPU per request: doppel ${work} / node:http doing doppel's work in process`,
          ratio(subject, matched),
          'x',
          '<= 1.5',
          `${us(subject)} vs ${us(matched)} (${inProcess[work].toFixed(1)} µs of it doppel's work, timed alone)`,
        ),
      )
      for (const peer of peers) {
        const theirs = at(peer, work)
        if (theirs) figures.push(withMatched(`server CPU per request: doppel ${work} / ${peer.name}`, ratio(subject, theirs), '<= 0.5', `${us(subject)} vs ${us(theirs)}`, ratio(matched, theirs)))
      }
      const crypto = floors[work]
      if (crypto !== undefined) {
        // The floor of a login over HTTP: its cryptography plus the bare server's cost of a request.
        const least = crypto.micros + median(base)
        figures.push(
          withMatched(
            `server CPU per request: doppel ${work} / (its crypto + bare node:http)`,
            median(subject) / least,
            '<= 6.0',
            `${us(subject)} vs ${crypto.micros.toFixed(1)} µs crypto (${crypto.what}) + ${us(base)}`,
            median(matched) / least,
          ),
        )
      }
    }
    for (const adapter of [ownAdapter, honoAdapter]) {
      const values = at(adapter, 'GET role')!
      figures.push(figure(`server CPU per request: ${adapter.name} / bare node:http`, ratio(values, at(floor, 'GET role')!), 'x', '<= 1.5', `${us(values)} vs ${us(at(floor, 'GET role')!)}`))
    }
    for (const note of notes) process.stdout.write(`  note: ${note}\n`)
    return figures
  } finally {
    await Promise.all(stops.map((stop) => stop()))
  }
}
