/** `doppel serve --data-dir` as a child process, for the data-directory tests; every child and folder goes in afterEach. */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'

const BIN = new URL('../../bin/doppel.js', import.meta.url).pathname
const ROOT = { 'X-Service-Token': 'root', Authorization: 'Bearer root' }

export interface Server {
  url: string
  child: ChildProcess
  /** What it printed on stderr so far. */
  stderr(): string
}

const children: ChildProcess[] = []
const dirs: string[] = []

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL')
      await once(child, 'exit')
    }
  }
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

/** A fresh temporary folder (removed after the test) and the data directory's path in it, not yet made. */
export async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'doppel-data-'))
  dirs.push(dir)
  return join(dir, 'state')
}

function run(args: string[]): ChildProcess {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  return child
}

/** Runs a `doppel serve` that should not start: its exit code, output and how long it took. */
export async function refused(args: string[]): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const started = performance.now()
  const child = run(args)
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk) => (stdout += chunk))
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const [code] = (await once(child, 'exit')) as [number]
  return { code, stdout, stderr, ms: performance.now() - started }
}

export async function start(dir: string, args: string[] = []): Promise<Server> {
  const child = run(['--data-dir', dir, ...args])
  let stderr = ''
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const first = await Promise.race([once(child.stdout!, 'data'), once(child, 'exit').then(() => [Buffer.from(`exited: ${stderr}`)])])
  const line = String((first as [Buffer])[0])
  const match = /^doppel listening on (http:\/\/127\.0\.0\.1:\d+)\n$/.exec(line)
  if (!match) throw new Error(line)
  return { url: match[1]!, child, stderr: () => stderr }
}

export async function stop(server: Server, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  const exited = once(server.child, 'exit')
  server.child.kill(signal)
  const [code] = (await exited) as [number | null]
  return code
}

export async function send(server: Server, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...ROOT, 'Content-Type': 'application/json', ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, body: text === '' ? null : JSON.parse(text) }
}

/** Polls until `check` holds (or fails the test after `ms`). */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
