// Runs one fenced block of the documentation as a reader would paste it, in a folder shared by the blocks of
// its Markdown file. What each language means (sh, ts, yaml, json) is written once, for authors, in
// CONTRIBUTING.md, "Documentation".
import { execFile, execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import { parse } from 'yaml'
import { createDoppel } from '../../src/index.ts'
import { createEmulatorTarget, loadFixtures, parseScenario, runScenario } from '../../src/faces/scenario/index.ts'
import { closedPort } from '../support/closed-port.ts'
import type { DocBlock } from '../support/readme-blocks.ts'

const ROOT = new URL('../../', import.meta.url).pathname
const DOPPEL = join(ROOT, 'bin/doppel.js')
const RUNNABLE = ['sh', 'ts', 'yaml', 'json'] as const

const ENTRY_POINTS: Record<string, string> = {
  doppel: 'src/index.ts',
  'doppel/msw': 'src/faces/msw/index.ts',
  'doppel/scenario': 'src/faces/scenario/index.ts',
  'doppel/vitest': 'src/faces/scenario/vitest.ts',
}

/** An empty folder for a Markdown file's blocks, where `node_modules/doppel` is this repository, as installed. */
export function blockFolder(file: string): string {
  const dir = join(ROOT, '.tmp/doc-blocks', file.replaceAll('/', '_'))
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(join(dir, 'node_modules'), { recursive: true })
  symlinkSync(ROOT, join(dir, 'node_modules/doppel'))
  return dir
}

export async function runBlock(block: DocBlock, dir: string): Promise<void> {
  const path = /^# ([\w./-]+\.ya?ml)\s*$/m.exec(block.body.split('\n')[0] ?? '')?.[1]
  if (path !== undefined) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), block.body)
  }
  if (block.language === 'sh') return runShell(block, dir)
  if (block.language === 'ts') return runTypeScript(block, dir)
  if (block.language === 'yaml') return checkYaml(block)
  if (block.language === 'json') return void JSON.parse(block.body)
  throw new Error(`${block.file}:${block.line}: a \`${block.language}\` block cannot be run: use one of ${RUNNABLE.join(', ')}, or mark it \`no-run: <why>\``)
}

const PRELUDE = `set -euo pipefail
trap 'status=$?; echo "line $LINENO: \\\`$BASH_COMMAND\\\` exited $status" >&2' ERR
`
/**
 * After the block: a reader pastes the blocks in order into one shell, where a server a block leaves running
 * holds its port for the next. A background job still running a few seconds on fails the block.
 */
const LEFT_RUNNING = `
for _ in $(seq 30); do [ -z "$(jobs -pr)" ] && exit 0; sleep 0.1; done
echo "the block left a background job running: stop what it starts (--pid-file and kill, or kill %1): $(jobs -r)" >&2
exit 97
`
/** Commands first on the block's PATH: `npx doppel` runs this repository's CLI, curl fails on a 4xx or 5xx. */
const SHIMS = {
  npx: `#!/bin/sh\nif [ "$1" = doppel ]; then shift; exec node "${DOPPEL}" "$@"; fi\nexec "${which('npx')}" "$@"\n`,
  // curl refuses --fail-with-body beside a block's own --fail (-f, -sf…)
  curl: `#!/bin/sh\nfail=--fail-with-body\nfor arg; do case "$arg" in --fail|-[!-]*f*) fail=;; esac; done\nexec "${which('curl')}" --silent --show-error $fail "$@"\n`,
}

function which(command: string): string {
  return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim()
}

async function runShell(block: DocBlock, dir: string): Promise<void> {
  const ports = new Map<string, number>()
  for (const documented of ['8200', '8300']) ports.set(documented, await closedPort())
  const script = block.body.replace(/\b(8200|8300)\b/g, (port) => String(ports.get(port)))
  const server = /\bdoppel serve\b/.test(block.body) ? undefined : await startServer(ports.get('8200')!)
  writeFileSync(join(dir, '.prelude.sh'), PRELUDE)
  mkdirSync(join(dir, '.bin'), { recursive: true })
  for (const [name, text] of Object.entries(SHIMS)) {
    writeFileSync(join(dir, '.bin', name), text)
    chmodSync(join(dir, '.bin', name), 0o755)
  }
  writeFileSync(join(dir, '.block.sh'), script + LEFT_RUNNING)
  // CONTRIBUTING.md's blocks are about the repository itself, so they run in it.
  const child = spawn('bash', [join(dir, '.block.sh')], {
    cwd: block.file === 'CONTRIBUTING.md' ? ROOT : dir,
    detached: true,
    env: {
      ...process.env,
      BASH_ENV: join(dir, '.prelude.sh'),
      PATH: `${join(dir, '.bin')}:${dirname(process.execPath)}:${join(ROOT, 'node_modules/.bin')}:${process.env.PATH}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const timer = setTimeout(() => killGroup(child.pid!), 90_000)
  const [code] = (await once(child, 'exit')) as [number | null]
  clearTimeout(timer)
  killGroup(child.pid!)
  server?.kill()
  if (code !== 0) {
    const line = /^line (\d+): /m.exec(output)?.[1]
    const where = line === undefined ? `${block.file}:${block.line}` : `${block.file}:${block.line + Number(line)}`
    throw new Error(`${where}: the sh block failed (exit ${code})\n${output}`)
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGTERM')
  } catch {
    // the group has ended
  }
}

async function startServer(port: number) {
  const server = spawn(process.execPath, [DOPPEL, 'serve', '--port', String(port), '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  server.stdout.on('data', (chunk) => (out += chunk))
  for (let waited = 0; !out.includes('doppel listening on'); waited += 50) {
    if (waited > 30_000 || server.exitCode !== null) {
      server.kill()
      throw new Error(`doppel serve did not start: ${out}`)
    }
    await sleep(50)
  }
  return server
}

async function runTypeScript(block: DocBlock, dir: string): Promise<void> {
  const source = block.body.replace(/from '(doppel(?:\/\w+)?)'/g, (whole, name: string) =>
    ENTRY_POINTS[name] ? `from ${JSON.stringify(join(ROOT, ENTRY_POINTS[name]))}` : whole,
  )
  const file = `block-${block.line}${/from '(vitest|doppel\/vitest)'/.test(block.body) ? '.test' : ''}.ts`
  writeFileSync(join(dir, file), source)
  const run = promisify(execFile)
  const underVitest = file.endsWith('.test.ts')
  if (underVitest) writeFileSync(join(dir, 'vitest.config.ts'), 'export default { test: { testTimeout: 30_000 } }\n')
  const args = underVitest
    ? [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir, '--config', join(dir, 'vitest.config.ts'), file]
    : [join(dir, file)]
  let printed: string
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd: dir, timeout: 90_000 })
    printed = stdout + stderr
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string }
    throw new Error(`${block.file}:${block.line}: the ts block failed\n${stdout ?? ''}${stderr ?? ''}`, { cause: error })
  }
  // `console.log(…) // → text` says what the line prints: each such text must be printed, in order.
  const lines = printed.split('\n').map((line) => line.trim())
  let from = 0
  for (const [, expected] of block.body.matchAll(/console\.(?:log|error)\(.*\/\/ → (.*)$/gm)) {
    const at = lines.indexOf(expected!.trim(), from)
    if (at === -1) throw new Error(`${block.file}:${block.line}: the ts block did not print "${expected}" (in order)\n${printed}`)
    from = at + 1
  }
}

async function checkYaml(block: DocBlock): Promise<void> {
  const name = `${block.file}:${block.line}`
  const document = parse(block.body) as Record<string, unknown> | null
  if (document !== null && typeof document === 'object' && 'steps' in document) {
    const scenario = parseScenario(block.body, name)
    const result = await runScenario(scenario, { target: createEmulatorTarget({ seed: 1 }), runId: 'doc' })
    if (result.verdict !== 'passed') throw new Error(`${name}: the scenario ${result.verdict}\n${JSON.stringify(result, null, 2)}`)
    return
  }
  await loadFixtures(createDoppel({ seed: 1 }), block.body, name)
}
