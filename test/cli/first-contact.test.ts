// The CLI as a new user first meets it: version, one-line errors with exit code 1, quiet closed pipes.
import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { closedPort } from '../support/closed-port.ts'
import { tempDir } from '../support/temp-dir.ts'

const BIN = new URL('../../bin/doppel.js', import.meta.url).pathname
const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }

function run(args: string[], cwd?: string) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr })
    })
  })
}

/** One line on stderr, no stack frames. */
function expectOneLine(stderr: string, line: string | RegExp) {
  const [first] = stderr.split('\n')
  expect(first).toMatch(line)
  expect(stderr).not.toMatch(/^\s+at /m)
}

describe('doppel CLI first contact', () => {
  it('prints its version', async () => {
    for (const flag of ['--version', '-v']) {
      const { code, stdout } = await run([flag])
      expect(code).toBe(0)
      expect(stdout).toBe(`${PACKAGE.version}\n`)
    }
  })

  it('suggests the command meant by a typo, exit 1', async () => {
    const { code, stderr } = await run(['sevre'])
    expect(code).toBe(1)
    expectOneLine(stderr, 'doppel: unknown command "sevre" (did you mean "serve"?)')
  })

  it('suggests the flag meant by a typo, exit 1', async () => {
    const serve = await run(['serve', '--prot', '1'])
    expect(serve.code).toBe(1)
    expectOneLine(serve.stderr, 'doppel serve: unknown option --prot (did you mean --port?)')
    const list = await run(['run', 'scenarios', '--lst'])
    expect(list.code).toBe(1)
    expectOneLine(list.stderr, 'doppel run: unknown option --lst (did you mean --list?)')
  })

  it('names the --fixtures file and the reason it cannot be read, exit 1', async () => {
    const missing = join(tempDir('cli'), 'nope.yaml')
    const { code, stderr } = await run(['serve', '--port', '0', '--fixtures', missing])
    expect(code).toBe(1)
    expectOneLine(stderr, `doppel serve: cannot load --fixtures: ${missing}: cannot read the file: ENOENT: no such file or directory, open '${missing}'`)
    expect(stderr.trim().split('\n')).toHaveLength(1)
  })

  it('names a bad --fixtures file line, exit 1', async () => {
    const bad = join(tempDir('cli'), 'bad.yaml')
    writeFileSync(bad, 'version: 1\nauth:\n  roles:\n    web: { auth_type: nope }\n')
    const { code, stderr } = await run(['serve', '--port', '0', '--fixtures', bad])
    expect(code).toBe(1)
    expectOneLine(stderr, new RegExp(`^doppel serve: cannot load --fixtures: ${bad}:\\d+: `))
  })

  it('says the port is in use, exit 1', async () => {
    const blocker = createServer().listen(0, '127.0.0.1')
    await once(blocker, 'listening')
    const port = (blocker.address() as { port: number }).port
    try {
      const { code, stderr } = await run(['serve', '--port', String(port)])
      expect(code).toBe(1)
      expect(stderr).toBe(`doppel serve: port ${port} is in use; --port 0 picks a free one\n`)
    } finally {
      blocker.close()
    }
  })

  it('names an unreadable scenario path, exit 1', async () => {
    const { code, stderr } = await run(['run', '/no/such/scenarios'])
    expect(code).toBe(1)
    expectOneLine(stderr, 'doppel run: no such file or directory: /no/such/scenarios')
  })

  it('ends quietly with 0 when its output pipe closes early', async () => {
    const child = spawn(process.execPath, [BIN, 'run', '--list', new URL('../../scenarios/', import.meta.url).pathname], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.stdout.once('data', () => child.stdout.destroy())
    const [code] = await once(child, 'exit')
    expect(stderr).toBe('')
    expect(code).toBe(0)
  })

  it('keeps the exit codes the README promises', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    expect(readme).toContain('| 0 | success: all scenarios passed, a command finished, a server stopped cleanly |')
    expect((await run(['--help'])).code).toBe(0)
    expect((await run([])).code).toBe(1)
    expect((await run(['conformance', '--target', `http://127.0.0.1:${await closedPort()}`, '--label', 'registry'])).code).toBe(3)
    const dir = tempDir('cli')
    writeFileSync(join(dir, 'broken.yaml'), 'version: 1\nname: x\nsteps: 3\n')
    expect((await run(['run', 'broken.yaml'], dir)).code).toBe(2)
    writeFileSync(
      join(dir, 'failing.yaml'),
      'version: 1\nname: fails\nsteps:\n  - request: { method: GET, path: /_doppel/health }\n    expect: { status: 418 }\n',
    )
    expect((await run(['run', 'failing.yaml'], dir)).code).toBe(4)
  })
})
