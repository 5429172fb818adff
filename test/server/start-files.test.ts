// Files doppel reads at start are regular files read with a bound: a FIFO is refused at once (it used to
// hang start-up with SIGTERM ignored), a device is refused rather than read until memory runs out
// (`--tls-key /dev/zero`), and the pid file is never written through a link planted at its path.
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir } from '../support/temp-dir.ts'

const BIN = new URL('../../bin/doppel.js', import.meta.url).pathname
const cleanup: (() => void)[] = []
afterEach(() => {
  for (const step of cleanup.splice(0).reverse()) step()
})

/** `doppel serve <args>` as a process: its exit code and stderr, or `hung` after 5 s. */
async function serveFails(args: string[]): Promise<{ code: number | 'hung'; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  cleanup.push(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'))
  let stderr = ''
  let stdout = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  const [code] = (await Promise.race([once(child, 'exit'), new Promise((resolve) => setTimeout(() => resolve(['hung']), 5000))])) as [number | 'hung']
  return { code, stderr, stdout }
}

function fifo(dir: string, name: string): string {
  const path = join(dir, name)
  execFileSync('mkfifo', [path])
  return path
}

const PEM = (label: string) => `-----BEGIN ${label}-----\nAAAA\n-----END ${label}-----\n`

describe('files read at start', () => {
  it.each([
    ['--tls-cert', (file: string, dir: string) => ['--tls-cert', file, '--tls-key', writePem(dir, 'key.pem', 'PRIVATE KEY')]],
    ['--tls-key', (file: string, dir: string) => ['--tls-cert', writePem(dir, 'cert.pem', 'CERTIFICATE'), '--tls-key', file]],
    ['--fixtures', (file: string) => ['--fixtures', file]],
    ['--root-token-file', (file: string) => ['--root-token-file', file]],
  ])('a FIFO as %s is refused at once, in one line', async (_flag, args) => {
    const dir = tempDir('start-files')
    const { code, stderr, stdout } = await serveFails(args(fifo(dir, 'pipe'), dir))
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toContain('it is a FIFO, not a regular file')
    expect(stderr.trim().split('\n')[0]).toMatch(/^doppel serve: /)
  })

  it('a device as --tls-key (/dev/zero) is refused, not read without end', async () => {
    const dir = tempDir('start-files')
    const { code, stderr } = await serveFails(['--tls-cert', writePem(dir, 'cert.pem', 'CERTIFICATE'), '--tls-key', '/dev/zero'])
    expect(code).toBe(1)
    expect(stderr).toMatch(/^doppel serve: cannot use --tls-cert \S+ with --tls-key \/dev\/zero: \/dev\/zero: it is a device, not a regular file\n$/)
  })

  it('a --tls-cert larger than 1 MiB is refused', async () => {
    const dir = tempDir('start-files')
    const big = join(dir, 'big.pem')
    writeFileSync(big, 'A'.repeat(1024 * 1024 + 1))
    const { code, stderr } = await serveFails(['--tls-cert', big, '--tls-key', writePem(dir, 'key.pem', 'PRIVATE KEY')])
    expect(code).toBe(1)
    expect(stderr).toContain(`${big}: it is larger than 1048576 bytes`)
  })

  it('a FIFO as the --data-dir snapshot is refused at once', async () => {
    const dir = join(tempDir('start-files'), 'data')
    mkdirSync(dir, { mode: 0o700 })
    fifo(dir, 'root.snapshot.json')
    const { code, stderr } = await serveFails(['--data-dir', dir])
    expect(code).toBe(1)
    expect(stderr).toBe(`doppel serve: cannot read the snapshot ${join(dir, 'root.snapshot.json')}: it is a FIFO, not a regular file\n`)
  })

  it('a --tls-cert that is a folder is refused', async () => {
    const dir = tempDir('start-files')
    const { code, stderr } = await serveFails(['--tls-cert', dir, '--tls-key', writePem(dir, 'key.pem', 'PRIVATE KEY')])
    expect(code).toBe(1)
    expect(stderr).toContain(`${dir}: it is a directory, not a regular file`)
  })
})

describe('TLS material written at start', () => {
  it.each(['cert.pem', 'ca.pem'])('a link planted at --data-dir tls/%s is refused, its target left alone', async (name) => {
    const dir = join(tempDir('start-files'), 'data')
    mkdirSync(join(dir, 'tls'), { recursive: true, mode: 0o700 })
    const victim = join(tempDir('start-files'), 'victim.txt')
    writeFileSync(victim, 'keep me\n')
    symlinkSync(victim, join(dir, 'tls', name))
    const { code, stderr } = await serveFails(['--tls', '--data-dir', dir])
    expect(code).toBe(1)
    expect(stderr).toMatch(new RegExp(`^doppel serve: cannot make the --tls certificates in ${join(dir, 'tls')}: .*symbolic link`))
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n')
  })
})

describe('the pid file', () => {
  it('is not written through a symbolic link planted at its path: refused, the link and its target left alone', async () => {
    const dir = tempDir('start-files')
    const victim = join(dir, 'victim.txt')
    writeFileSync(victim, 'keep me\n')
    const pidFile = join(dir, 'doppel.pid')
    symlinkSync(victim, pidFile)
    const { code, stderr, stdout } = await serveFails(['--pid-file', pidFile])
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toBe(`doppel serve: cannot write --pid-file: ${pidFile} is a symbolic link; doppel writes only to a regular file or a new name\n`)
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n')
    expect(lstatSync(pidFile).isSymbolicLink()).toBe(true)
  })

  it('a FIFO at its path is refused at once', async () => {
    const dir = tempDir('start-files')
    const pidFile = fifo(dir, 'doppel.pid')
    const { code, stderr } = await serveFails(['--pid-file', pidFile])
    expect(code).toBe(1)
    expect(stderr).toBe(`doppel serve: cannot write --pid-file: ${pidFile} is not a regular file; doppel writes only to a regular file or a new name\n`)
  })

  it('an old pid file is replaced, and no temporary file is left beside it', async () => {
    const dir = tempDir('start-files')
    const pidFile = join(dir, 'doppel.pid')
    writeFileSync(pidFile, '1\n')
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', '--pid-file', pidFile], { stdio: ['ignore', 'pipe', 'pipe'] })
    cleanup.push(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'))
    await once(child.stdout!, 'data')
    expect(readFileSync(pidFile, 'utf8')).toBe(`${child.pid}\n`)
    expect(execFileSync('ls', ['-A', dir]).toString()).toBe('doppel.pid\n')
    child.kill('SIGTERM')
    await once(child, 'exit')
    expect(existsSync(pidFile)).toBe(false)
  })
})

function writePem(dir: string, name: string, label: string): string {
  const file = join(dir, name)
  writeFileSync(file, PEM(label))
  return file
}
