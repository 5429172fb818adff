// A long-running command stops within a second when told, even while a request waits on an upstream that
// accepts and never answers (the provider's endpoints for serve, --upstream for record), and leaves no
// process or pid file behind. Also: through `sh -c` as npm runs the bin, the end of that shell stops it.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { closedPort } from '../support/closed-port.ts'
import { tempDir } from '../support/temp-dir.ts'
import { isRunning } from '../support/process-state.ts'
import { startUntilReady } from '../support/ready-line.ts'

const BIN = new URL('../../bin/doppel.js', import.meta.url).pathname
const cleanup: (() => void)[] = []
afterEach(() => {
  for (const step of cleanup.splice(0).reverse()) step()
})

/** A TCP server that accepts connections and never writes a byte. */
async function silentUpstream(): Promise<{ url: string; connections: () => number }> {
  const sockets = new Set<Socket>()
  let seen = 0
  const server: Server = createServer((socket) => {
    seen++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => undefined)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanup.push(() => {
    for (const socket of sockets) socket.destroy()
    server.close()
  })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => seen }
}

/** Starts a command and resolves with the URL of its ready line; killed after the test if still running. */
function start(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  return startUntilReady(command, args, {
    env,
    onSpawn: (child) => cleanup.push(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')),
  })
}

/** Sends `signal` and resolves with the exit code and the time it took (given up on after 3 s). */
async function stopWith(child: ChildProcess, signal: NodeJS.Signals): Promise<{ code: number | null; ms: number }> {
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>
  const started = performance.now()
  child.kill(signal)
  const [code] = await Promise.race([exited, new Promise<[null]>((resolve) => setTimeout(() => resolve([null]), 3000))])
  return { code, ms: performance.now() - started }
}

/** Resolves once `check` holds (polled for up to 5 s). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25))
  expect(check()).toBe(true)
}

const ROOT = { 'X-Service-Token': 'root', 'Content-Type': 'application/json' }

/** A rotate-root whose GetUser call goes to the silent upstream, retried up to 1000 times: left pending. */
async function providerCallPending(url: string, upstream: { url: string; connections: () => number }): Promise<{ answer: Promise<Response | Error> }> {
  const config = await fetch(`${url}/v1/auth/cloud/config/client`, {
    method: 'POST',
    headers: ROOT,
    body: JSON.stringify({ access_key: 'AKIAEXAMPLEEXAMPLE12', secret_key: 'secret', iam_endpoint: upstream.url, max_retries: 1000 }),
  })
  expect(config.status).toBe(204)
  const answer = fetch(`${url}/v1/auth/cloud/config/rotate-root`, { method: 'POST', headers: ROOT }).catch((error: Error) => error)
  await until(() => upstream.connections() > 0)
  return { answer }
}

describe('stopping within a second', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('serve: %s while a provider call waits on a silent endpoint', async (signal) => {
    const upstream = await silentUpstream()
    const pidFile = join(tempDir('stop'), 'doppel.pid')
    const { child, url } = await start(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', '--pid-file', pidFile])
    expect(readFileSync(pidFile, 'utf8')).toBe(`${child.pid}\n`)
    const pending = await providerCallPending(url, upstream)
    const { code, ms } = await stopWith(child, signal)
    expect(code).toBe(0)
    expect(ms).toBeLessThan(1000)
    // The client was answered with the failed provider call, or its connection closed: nothing hangs.
    const answer = await pending.answer
    if (!(answer instanceof Error)) expect(answer.status).toBeGreaterThanOrEqual(400)
    expect(existsSync(pidFile)).toBe(false)
  })

  it('record: SIGTERM while a request waits on a silent upstream; the scenario is written without it', async () => {
    const upstream = await silentUpstream()
    const out = tempDir('stop')
    const { child, url } = await start(process.execPath, [BIN, 'record', '--upstream', upstream.url, '--port', '0', '--out', out, '--quiet'])
    const pending = fetch(`${url}/v1/sys/health`).catch((error: Error) => error)
    await until(() => upstream.connections() > 0)
    const { code, ms } = await stopWith(child, 'SIGTERM')
    expect(code).toBe(0)
    expect(ms).toBeLessThan(1000)
    const answer = await pending
    if (!(answer instanceof Error)) expect(answer.status).toBe(502)
  })

  it.each(['serve', 'record'])('%s: a --pid-file that cannot be written is one line and exit 1, nothing left listening', async (command) => {
    const pidFile = join(tempDir('stop'), 'missing', 'doppel.pid')
    const args = command === 'serve' ? [] : ['--upstream', `http://127.0.0.1:${await closedPort()}`, '--out', tempDir('stop')]
    const child = spawn(process.execPath, [BIN, command, ...args, '--port', '0', '--pid-file', pidFile], { stdio: ['ignore', 'pipe', 'pipe'] })
    cleanup.push(() => child.exitCode === null && child.kill('SIGKILL'))
    let stderr = ''
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const [code] = (await Promise.race([once(child, 'exit'), new Promise((resolve) => setTimeout(() => resolve(['still running']), 5000))])) as [unknown]
    expect(code).toBe(1)
    expect(stderr).toMatch(new RegExp(`^doppel ${command}: cannot write --pid-file: ENOENT[^\n]*\n$`))
  })

  it('through sh -c as npm runs the bin: when the shell is killed, the orphaned server stops', async () => {
    const pidFile = join(tempDir('stop'), 'doppel.pid')
    // npm_lifecycle_event is how doppel knows npm started it; `; :` keeps dash from exec-ing node in place.
    const { child: shell, url } = await start('sh', ['-c', `"${process.execPath}" "${BIN}" serve --port 0 --quiet --pid-file "${pidFile}"; :`], {
      ...process.env,
      npm_lifecycle_event: 'npx',
    })
    const pid = Number(readFileSync(pidFile, 'utf8'))
    expect(pid).not.toBe(shell.pid)
    cleanup.push(() => isRunning(pid) && process.kill(pid, 'SIGKILL'))
    expect((await fetch(`${url}/_doppel/health`)).status).toBe(200)
    const started = performance.now()
    await stopWith(shell, 'SIGTERM')
    for (let i = 0; i < 100 && isRunning(pid); i++) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(isRunning(pid)).toBe(false)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(existsSync(pidFile)).toBe(false)
  })

  it('the moment its ready line appears: the shell killed then, or SIGTERM to doppel then, still stops it cleanly', async () => {
    for (const target of ['shell', 'doppel'] as const) {
      const pidFile = join(tempDir('stop'), 'doppel.pid')
      const shell = spawn('sh', ['-c', `"${process.execPath}" "${BIN}" serve --port 0 --quiet --pid-file "${pidFile}"; :`], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, npm_lifecycle_event: 'npx' },
      })
      cleanup.push(() => shell.exitCode === null && shell.signalCode === null && shell.kill('SIGKILL'))
      let pid = 0
      // Signalled in the same turn as the ready line arrives: before the CLI could wait for a stop, had it
      // started watching only once the server was up.
      await new Promise<void>((resolve) =>
        shell.stdout!.once('data', () => {
          pid = Number(readFileSync(pidFile, 'utf8'))
          process.kill(target === 'shell' ? shell.pid! : pid, 'SIGTERM')
          resolve()
        }),
      )
      cleanup.push(() => isRunning(pid) && process.kill(pid, 'SIGKILL'))
      const started = performance.now()
      for (let i = 0; i < 100 && isRunning(pid); i++) await new Promise((resolve) => setTimeout(resolve, 20))
      expect(isRunning(pid), target).toBe(false)
      expect(performance.now() - started, target).toBeLessThan(1000)
      // A clean stop removes its pid file; a process killed by the signal would have left it.
      expect(existsSync(pidFile), target).toBe(false)
    }
  })

  /** A fixture of 40,000 roles: loading it takes many seconds, well past the second a stop may take. */
  function slowFixture(): string {
    const file = join(tempDir('stop'), 'slow.yaml')
    const roles = Array.from({ length: 40_000 }, (_, i) => `    r${i}: { auth_type: iam, bound_iam_principal_arn: ["arn:aws:iam::123456789012:role/r${i}"] }\n`)
    writeFileSync(file, `version: 1\nauth:\n  roles:\n${roles.join('')}`)
    return file
  }

  it('serve: SIGTERM while the --fixtures are still loading stops it within a second, never listening', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', '--fixtures', slowFixture()], { stdio: ['ignore', 'pipe', 'pipe'] })
    cleanup.push(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'))
    let stdout = ''
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const { code, ms } = await stopWith(child, 'SIGTERM')
    expect(code).toBe(0)
    expect(ms).toBeLessThan(1000)
    expect(stdout).toBe('')
  })

  it('serve behind npm: the shell killed while the --fixtures are still loading stops it within a second', async () => {
    // The shell prints doppel's process id, then waits for it, as npm's `sh -c` does.
    const shell = spawn('sh', ['-c', `"${process.execPath}" "${BIN}" serve --port 0 --quiet --fixtures "${slowFixture()}" & echo $!; wait`], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_lifecycle_event: 'npx' },
    })
    cleanup.push(() => shell.exitCode === null && shell.signalCode === null && shell.kill('SIGKILL'))
    const [line] = (await once(shell.stdout!, 'data')) as [Buffer]
    const pid = Number(line.toString().trim())
    cleanup.push(() => isRunning(pid) && process.kill(pid, 'SIGKILL'))
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(isRunning(pid)).toBe(true)
    const started = performance.now()
    await stopWith(shell, 'SIGTERM')
    for (let i = 0; i < 100 && isRunning(pid); i++) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(isRunning(pid)).toBe(false)
    expect(performance.now() - started).toBeLessThan(1000)
  })
})
