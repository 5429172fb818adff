// doppel as a user installs it: `npm pack`, the tarball installed into a fresh project with msw, vitest, jest
// (with @swc/jest for TypeScript tests) and TypeScript (5.9 and the newest), then every face used from there under Node 24, Node 22 and
// Node 26, with no flag or extra config (Jest aside: docs/jest.md).
import { allPassedOn } from '../support/profile-scenarios.ts'
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { docBlocks, readmeBlocks, readmeQuickstart } from '../support/readme-blocks.ts'
import { tempDir } from '../support/temp-dir.ts'
import { isRunning } from '../support/process-state.ts'

// Installing and running a package takes longer than a unit test: generous bounds, no timing asserted.
vi.setConfig({ testTimeout: 240_000 })

const exec = promisify(execFile)
const root = new URL('../../', import.meta.url).pathname
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string
  engines: { node: string }
  exports: Record<string, unknown>
  repository?: { url: string }
  homepage?: string
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const npmFlags = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error']

/** A Node binary of `version` from the npm registry (the `node-<platform>-<arch>` package), kept in node_modules/.cache. */
async function nodeOf(version: string): Promise<string> {
  const cache = join(root, 'node_modules', '.cache', `doppel-node-${version}`)
  const pkg = `node-${process.platform}-${process.arch}`
  const binary = join(cache, 'node_modules', pkg, 'bin', 'node')
  if (!existsSync(binary)) {
    mkdirSync(cache, { recursive: true })
    writeFileSync(join(cache, 'package.json'), '{"private":true}\n')
    await exec(npm, ['install', ...npmFlags, `${pkg}@${version}`], { cwd: cache, timeout: 180_000 })
  }
  return binary
}

interface Packed {
  filename: string
  files: { path: string }[]
}

let work: string
let project: string
let tarball: Packed
const binaries: Record<string, string> = { 'Node 24': process.execPath }

beforeAll(async () => {
  expect(process.versions.node.split('.')[0]).toBe('24')
  work = tempDir('pack')
  const [packed, node22, node26] = await Promise.all([
    exec(npm, ['pack', '--json', '--loglevel=error', '--pack-destination', work], { cwd: root, timeout: 180_000, maxBuffer: 64 * 1024 * 1024 }),
    // Pinned, as everything the tests fetch: the newest of each line the package claims, on the day it was set.
    nodeOf('22.23.5'),
    nodeOf('26.12.1'),
  ])
  tarball = (JSON.parse(packed.stdout) as Packed[])[0]!
  binaries['Node 22'] = node22
  binaries['Node 26'] = node26
  project = join(work, 'consumer')
  mkdirSync(project)
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }) + '\n')
  // No @types/node: doppel's declarations bring it (docs/decisions/build.md). TypeScript 5.9 under an alias.
  await exec(npm, ['install', ...npmFlags, join(work, tarball.filename), 'msw', 'vitest', 'jest', '@swc/core', '@swc/jest', 'typescript@>=7', 'typescript5@npm:typescript@~5.9'], {
    cwd: project,
    timeout: 240_000,
  })
}, 420_000)

// The consumer's node_modules (a few hundred MB, SWC's binaries among them) takes longer to remove than the
// default hook time on a loaded machine; this runs before tempDir's own clean-up, which then finds it gone.
afterAll(() => work && rmSync(work, { recursive: true, force: true }), 120_000)

describe('the tarball', () => {
  it('ships the built package and nothing of the workshop', () => {
    const paths = tarball.files.map((file) => file.path)
    for (const needed of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'bin/doppel.js', 'dist/index.js', 'dist/index.d.ts', 'dist/cli/main.js', 'certs/rsa2048.pem', 'certs/rsa2048.key', 'certs/dsa2048.pem', 'certs/dsa2048.key', 'certs/README.md', 'schemas/scenario.schema.json', 'dist/features/documents/parse-worker.js', 'dist/features/dashboard/assets/index.html', 'dist/features/dashboard/assets/app.js']) {
      expect(paths, needed).toContain(needed)
    }
    expect(paths.some((path) => path.startsWith('conformance/') && path.endsWith('.yaml'))).toBe(true)
    expect(paths.some((path) => path.startsWith('scenarios/') && path.endsWith('.yaml'))).toBe(true)
    // The guides and the API reference ship (the README links them), not the decision records or reference notes beside them.
    const unwanted = paths.filter((path) => /(^|\/)(test|bench|src|scripts|\.ci)\/|^docs\/(?![\w-]+\.md$|api\/[\w/.-]+\.md$)|\.test\.|\.ts$(?<!\.d\.ts)|^certs\/(ca\.key|generate\.sh)$|Dockerfile|tsconfig|vitest\.config/.test(path))
    expect(unwanted).toEqual([])
    expect(paths).toContain('docs/in-process.md')
    expect(paths).toContain('docs/api/README.md')
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toMatch(/^Mozilla Public License Version 2\.0/)
  })

  it('has a README whose relative links resolve inside the package, and names its repository and homepage', () => {
    const paths = new Set(tarball.files.map((file) => file.path))
    const readme = readFileSync(join(project, 'node_modules', 'doppel', 'README.md'), 'utf8').replace(/^```[\s\S]*?^```$/gm, '')
    const relative = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!.split('#')[0]!).filter((link) => link !== '' && !/^[a-z]+:/.test(link))
    expect(relative.length).toBeGreaterThan(5)
    expect(relative.filter((link) => !paths.has(link))).toEqual([])
    expect(manifest.repository?.url).toMatch(/^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/)
    expect(manifest.homepage).toMatch(/^https:\/\/github\.com\//)
  })

  it('passes publint (package.json against what is packed), strictly', async () => {
    const publint = join(root, 'node_modules', 'publint', 'src', 'cli.js')
    const { stdout } = await exec(process.execPath, [publint, '--pack', 'false', '--strict'], { cwd: root, timeout: 60_000 })
    expect(stdout).toContain('All good!')
  })

  it('has every entry\'s declarations load Node\'s types themselves', () => {
    for (const entry of Object.values(manifest.exports)) {
      if (typeof entry === 'string') continue
      const types = (entry as { types: string }).types
      expect(readFileSync(join(project, 'node_modules', 'doppel', types), 'utf8'), types).toMatch(/^\/\/\/ <reference types="node" \/>\n/)
    }
  })

  it('states the Node versions it is tested on', () => {
    expect(manifest.engines.node).toBe('^22.12.0 || ^24.0.0 || ^26.0.0')
  })

  // The machine's own Node, when it is older than the package supports (Debian's is 20 here): the CLI says
  // which Node it needs and exits 1, rather than failing to link a module.
  const systemNode = ['/usr/bin/node', '/usr/local/bin/node'].find((path) => existsSync(path))
  const systemMajor = systemNode ? Number(execFileSync(systemNode, ['-p', 'process.versions.node']).toString().split('.')[0]) : 0
  it.skipIf(!systemNode || systemMajor >= 22)('on a Node older than it supports, the CLI names the Node it needs and exits 1', async () => {
    const failure = await exec(systemNode!, [join(project, 'node_modules', 'doppel', 'bin', 'doppel.js'), '--version'], { cwd: project }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    )
    expect(failure?.code).toBe(1)
    expect(failure?.stderr).toMatch(/^doppel needs Node\.js 22\.12 or newer \(this is v\d+\.\d+\.\d+\)\.\n$/)
  })
})

describe.each(['Node 24', 'Node 22', 'Node 26'])('installed in a fresh project, on %s', (name) => {
  const node = () => binaries[name]!
  const run = (args: string[], options: { timeout?: number } = {}) =>
    exec(node(), args, { cwd: project, timeout: options.timeout ?? 60_000, maxBuffer: 16 * 1024 * 1024 })
  /** `npx …` with this Node first on PATH, as a user's shell runs it. */
  const npx = (args: string[], env: Record<string, string> = {}) =>
    exec('npx', ['--no-install', ...args], {
      cwd: project,
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, PATH: `${dirname(node())}${delimiter}${process.env.PATH ?? ''}`, ...env },
    })

  it('runs on the Node it claims', async () => {
    const { stdout } = await run(['-p', 'process.versions.node'])
    expect(stdout.trim()).toMatch({ 'Node 22': /^22\.(1[2-9]|[2-9]\d)\./, 'Node 24': /^24\./, 'Node 26': /^26\./ }[name]!)
  })

  it('imports every export with plain node, from dist/', async () => {
    const script = `
      const where = {}
      for (const entry of ${JSON.stringify(Object.keys(manifest.exports).filter((key) => !key.includes('*') && key !== './package.json'))}) {
        const specifier = entry === '.' ? 'doppel' : 'doppel' + entry.slice(1)
        const loaded = await import(specifier)
        where[specifier] = [import.meta.resolve(specifier), Object.keys(loaded).length]
      }
      const schema = await import('doppel/schemas/scenario.schema.json', { with: { type: 'json' } })
      where.schema = schema.default.$schema
      const { createDoppel } = await import('doppel')
      const doppel = createDoppel({ seed: 1 })
      const res = await doppel.fetch('http://doppel.test/v1/auth/cloud/roles?list=true', { headers: { 'X-Service-Token': 'root' } })
      where.status = res.status
      // The server as a harness starts it: from the package's entry, and closed in order.
      const { startDoppelServer } = await import('doppel')
      const server = await startDoppelServer({ port: 0, seed: 1 })
      where.served = (await fetch(server.url + '/_doppel/health')).status
      await server.close()
      console.log(JSON.stringify(where))
    `
    const { stdout, stderr } = await run(['--input-type=module', '-e', script])
    expect(stderr).toBe('')
    const where = JSON.parse(stdout) as Record<string, [string, number]> & { schema: string; status: number; served: number }
    for (const specifier of ['doppel', 'doppel/msw', 'doppel/scenario', 'doppel/vitest']) {
      expect(where[specifier]![0]).toMatch(/\/node_modules\/doppel\/dist\/.+\.js$/)
      expect(where[specifier]![1]).toBeGreaterThan(0)
    }
    expect(where.schema).toMatch(/json-schema\.org/)
    expect(where.status).toBe(404)
    expect(where.served).toBe(200)
  })

  it('answers npx doppel --help and --version', async () => {
    const help = await npx(['doppel', '--help'])
    expect(help.stdout).toContain('Usage: doppel <command>')
    expect((await npx(['doppel', '--version'])).stdout).toBe(`${manifest.version}\n`)
    // What npx's scripts see as `node` is the Node under test.
    expect((await npx(['-c', 'node -p process.version'])).stdout.trim()).toBe((await run(['-p', 'process.version'])).stdout.trim())
  })

  it('serves with doppel serve --port 0 and passes conformance over HTTP', async () => {
    const server = await startServer(node(), ['serve', '--port', '0'])
    try {
      const health = await fetch(`${server.url}/_doppel/health`)
      expect(health.status).toBe(200)
      expect(await health.json()).toEqual({ status: 'ok' })
      // Run-time assets and the newer faces, from dist/: the dashboard, a tenant, the OpenAPI document.
      const page = await fetch(`${server.url}/_doppel/ui/`)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('<html')
      expect((await fetch(`${server.url}/_doppel/ui/app.js`)).status).toBe(200)
      expect((await fetch(`${server.url}/t/job-1/_doppel/health`)).status).toBe(200)
      const openapi = (await (await fetch(`${server.url}/_doppel/openapi.json`)).json()) as { openapi: string }
      expect(openapi.openapi).toMatch(/^3\.1\./)
      const conformance = await run([join(project, 'node_modules', '.bin', 'doppel'), 'conformance', '--target', server.url, '--label', 'registry and deprecation'], { timeout: 120_000 })
      expect(conformance.stdout.trim().split('\n').at(-1)).toMatch(/^[1-9]\d* passed, 0 failed, 0 skipped$/)
    } finally {
      await server.stop()
    }
  })

  // npm 11 runs the bin under `sh -c` and passes no signal on: a SIGTERM to npx leaves doppel orphaned,
  // which it notices; `--pid-file` lets a script signal doppel itself and wait for npx to end after it.
  it('stops within a second when npx is sent SIGTERM, or doppel (by --pid-file) SIGINT', async () => {
    const dir = tempDir('npx-stop')
    const env = { ...process.env, PATH: `${dirname(node())}${delimiter}${process.env.PATH ?? ''}` }
    const start = (args: string[]) => {
      const child = spawn('npx', ['--no-install', 'doppel', ...args, '--port', '0', '--quiet', '--pid-file', join(dir, 'doppel.pid')], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] })
      const exited = once(child, 'exit')
      const ready = once(child.stdout!, 'data')
      return { child, exited, ready }
    }
    const serve = start(['serve'])
    await serve.ready
    const pid = Number(readFileSync(join(dir, 'doppel.pid'), 'utf8'))
    expect(pid).not.toBe(serve.child.pid)
    let started = performance.now()
    serve.child.kill('SIGTERM')
    await serve.exited
    while (isRunning(pid) && performance.now() - started < 3000) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(isRunning(pid)).toBe(false)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(existsSync(join(dir, 'doppel.pid'))).toBe(false)

    const upstream = await startServer(node(), ['serve', '--port', '0'])
    const record = start(['record', '--upstream', upstream.url, '--out', join(dir, 'recorded')])
    try {
      const [line] = (await record.ready) as [Buffer]
      const proxy = /on (http:\/\/\S+)\n/.exec(String(line))![1]!
      expect((await fetch(`${proxy}/v1/auth/cloud/roles?list=true`, { headers: { 'X-Service-Token': 'root' } })).status).toBe(404)
      started = performance.now()
      process.kill(Number(readFileSync(join(dir, 'doppel.pid'), 'utf8')), 'SIGINT')
      const [code] = await record.exited
      expect(code).toBe(0)
      expect(performance.now() - started).toBeLessThan(1000)
      expect(readdirSync(join(dir, 'recorded'))).toHaveLength(1)
      expect(existsSync(join(dir, 'doppel.pid'))).toBe(false)
    } finally {
      await upstream.stop()
    }
  })

  it('runs the container image command line and health check', async () => {
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8')
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[]
    const health = JSON.parse(/^\s+CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[]
    // The image listens on 8200; here the same line picks a free port.
    const args = cmd.map((arg, i) => (cmd[i - 1] === '--port' ? '0' : arg))
    const server = await startServer(node(), args)
    try {
      const port = new URL(server.url).port
      const check = await run(health.slice(1).map((arg) => arg.replace('127.0.0.1:8200', `127.0.0.1:${port}`)))
      expect(check.stderr).toBe('')
    } finally {
      // docker stop's SIGTERM, to the bin running as the container's first process.
      expect(await server.stop()).toBeLessThan(1000)
    }
  })

  it('runs the bundled conformance suite and shipped scenarios on the emulator', async () => {
    const bin = join(project, 'node_modules', '.bin', 'doppel')
    const conformance = await run([bin, 'conformance', '--target', 'emulator'], { timeout: 120_000 })
    expect(conformance.stdout.trim().split('\n').at(-1)).toMatch(allPassedOn('service'))
    const scenarios = await run([bin, 'run', 'node_modules/doppel/scenarios/', '--target', 'emulator'], { timeout: 120_000 })
    expect(scenarios.stdout.trim().split('\n').at(-1)).toMatch(/^\d+ passed, 0 failed, \d+ skipped$/)
  })

  // Each recipe seeds the shipped fixtures and resets in afterEach or beforeEach (or both), over several
  // tests; the ES module one has a handler of the user's beside doppel's and onUnhandledFrame 'error'.
  it('runs the Jest recipes of docs/jest.md as written: ES modules, CommonJS by require on Node 24 and 26 and by import() on all, TypeScript through @swc/jest', async () => {
    const files = writeDocBlocks('docs/jest.md')
    const tests = files.filter((file) => file.includes('.test.'))
    expect(tests).toEqual(['login.test.js', 'login.test.cjs', 'login-import.test.cjs', 'deprecate.test.ts'])
    expect(files).toContain('jest.config.js')
    // The command of docs/jest.md, with the files named; --json reports each file's outcome on stdout.
    const command = readmeBlocks('sh', 'docs/jest.md')[0]!.trim()
    expect(command).toBe('NODE_OPTIONS=--experimental-vm-modules npx jest')
    const { stdout } = await npx(['jest', '--runInBand', '--json', '--runTestsByPath', ...tests], { NODE_OPTIONS: '--experimental-vm-modules' }).catch(
      (error: { stdout: string }) => error,
    )
    const report = JSON.parse(stdout) as { testResults: { name: string; status: string; message: string }[] }
    const outcome = Object.fromEntries(report.testResults.map((result) => [result.name.slice(project.length + 1), result.status]))
    expect(outcome, stdout).toEqual({
      'login.test.js': 'passed',
      'login.test.cjs': name === 'Node 22' ? 'failed' : 'passed',
      'login-import.test.cjs': 'passed',
      'deprecate.test.ts': 'passed',
    })
    // On Node 22 the require() recipe fails as docs/jest.md says it does.
    const required = report.testResults.find((result) => result.name.endsWith('login.test.cjs'))!
    if (name === 'Node 22') expect(required.message).toContain('Must use import to load ES Module')
  })

  it('is loaded by require() from CommonJS, without a flag or a warning', async () => {
    expect(writeDocBlocks('docs/jest.md')).toContain('health.cjs')
    const { stdout, stderr } = await run(['health.cjs'])
    expect(stderr).toBe('')
    expect(stdout).toBe('200\n')
  })

  it('passes the in-process guide\'s fixtures, reset() and handlers test under vitest, unchanged', async () => {
    const block = readmeBlocks('ts', 'docs/in-process.md').find((body) => body.startsWith('// fixtures-and-handlers.test.ts\n'))
    expect(block).toBeDefined()
    writeFileSync(join(project, 'fixtures-and-handlers.test.ts'), block!)
    const { stdout } = await run([join(project, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'fixtures-and-handlers.test.ts'], { timeout: 120_000 })
    expect(stdout).toMatch(/Tests\s+.*4 passed/)
  })

  it('passes the README quickstart under vitest, unchanged', async () => {
    writeFileSync(join(project, 'login.test.ts'), readmeQuickstart())
    const { stdout } = await run([join(project, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'login.test.ts'], { timeout: 120_000 })
    expect(stdout).toMatch(/Tests\s+.*1 passed/)
  })
})

/**
 * Writes each JavaScript and TypeScript block of a Markdown file to the file its first line names
 * (`// name.js`), in order; returns the names.
 */
function writeDocBlocks(file: string): string[] {
  return docBlocks(file)
    .filter((block) => block.language === 'js' || block.language === 'ts')
    .map(({ body }) => {
      const name = /^\/\/ ([\w.-]+)\n/.exec(body)?.[1]
      if (name === undefined) throw new Error(`a block of ${file} does not start with // <file name>`)
      writeFileSync(join(project, name), body)
      return name
    })
}

// TypeScript 6 and newer load no ambient types unless `types` names them (`[]` is the default), 5.x loads
// every @types package: the declarations must type-check either way.
describe.each([
  ['TypeScript 5.9', 'typescript5', /^Version 5\.9\./],
  ['the newest TypeScript', 'typescript', /^Version ([7-9]|\d\d)\./],
])('types for a strict %s consumer', (_, compiler, version) => {
  const tsc = () => join(project, 'node_modules', compiler, 'bin', 'tsc')

  it('is the TypeScript named', async () => {
    expect((await exec(process.execPath, [tsc(), '--version'], { cwd: project })).stdout).toMatch(version)
  })

  it.each([
    ['without types', {}],
    ['with types: []', { types: [] }],
    ['with types: ["node"]', { types: ['node'] }],
  ])('type-checks every export and the quickstart under module nodenext, without skipLibCheck, %s', async (_, types) => {
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2023', strict: true, noEmit: true, skipLibCheck: false, ...types },
        include: ['exports.ts', 'login.test.ts'],
      }),
    )
    writeFileSync(join(project, 'login.test.ts'), readmeQuickstart())
    writeFileSync(
      join(project, 'exports.ts'),
      `import { createDoppel, createDoppelServer, listen, type Doppel, type DoppelOptions, type JournalEntry } from 'doppel'
import { createHandlers, type HandlerOptions } from 'doppel/msw'
import { runScenarios, loadScenarioFile, createTarget, type Scenario, type TargetConfig } from 'doppel/scenario'
import { describeScenarios } from 'doppel/vitest'

const options: DoppelOptions = { seed: 1 }
const doppel: Doppel = createDoppel(options)
const handlerOptions: HandlerOptions = { baseUrl: 'http://vault.test' }
const handlers = createHandlers(doppel, handlerOptions)
const entries: readonly JournalEntry[] = doppel.journal.entries()
const target: TargetConfig = { kind: 'emulator' }
const instance: string = doppel.cloud.createInstance({ ami_id: 'ami-1' }).instance_id
export const used: unknown[] = [handlers, entries, target, instance, runScenarios, loadScenarioFile, createTarget, describeScenarios, createDoppelServer, listen]
export type Used = Scenario
`,
    )
    const result = await exec(process.execPath, [tsc(), '-p', project], { cwd: project, timeout: 120_000 }).catch((error: { stdout: string }) => error)
    expect(result.stdout).toBe('')
  })
})

interface StartedServer {
  url: string
  /** SIGTERM, as `docker stop` sends; resolves with the milliseconds until it exited. */
  stop(): Promise<number>
}

async function startServer(node: string, args: string[]): Promise<StartedServer> {
  const child: ChildProcess = spawn(node, [join(project, 'node_modules', '.bin', 'doppel'), ...args, '--quiet'], {
    cwd: project,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const exited = once(child, 'exit')
  const line = await Promise.race([
    once(child.stdout!, 'data').then(([chunk]) => String(chunk)),
    exited.then(() => {
      throw new Error(`doppel ${args.join(' ')} exited: ${stderr}`)
    }),
  ])
  const match = /^doppel listening on (http:\/\/[^:]+:(\d+))\n$/.exec(line)
  // A server that started wrong is not left running.
  if (!match) child.kill('SIGKILL')
  expect(match, line).not.toBeNull()
  return {
    url: `http://127.0.0.1:${match![2]}`,
    stop: async () => {
      const started = performance.now()
      child.kill('SIGTERM')
      await exited
      return performance.now() - started
    },
  }
}
